import type { Root } from "mdast";
import { parseMarkdown } from "../content/markdown/parse.js";
import { ValidationError } from "../errors/index.js";
import { type Attachment, type SerializedAttachment, serializeAttachment } from "./attachment.js";
import type { Author } from "./author.js";
import type { JsonValue } from "./json.js";
import {
  type LinkPreview,
  type SerializedLinkPreview,
  serializeLinkPreview,
} from "./link-preview.js";
import { type MessageSubject, subjectOf } from "./message-subject.js";
import { WORKFLOW_DESERIALIZE, WORKFLOW_SERIALIZE } from "./workflow-serde.js";

/** When a message was sent and whether it was edited. */
export interface MessageMetadata {
  dateSent: Date;
  edited: boolean;
  editedAt?: Date;
}

/** The fields a {@link Message} is built from. */
export interface MessageInit {
  /** The platform's message id; unique per adapter, and the key of dedupe. */
  id: string;
  /** The Baton thread id (`{adapter}:{…}`) the message belongs to; replies go there. */
  threadId: string;
  /** Plain text, platform markup already resolved (mentions as `@name`). */
  text: string;
  author: Author;
  metadata: MessageMetadata;
  attachments?: Attachment[];
  /**
   * Whether the message mentions this bot, as the adapter knows it from platform metadata.
   * `undefined` means "unknown": the core then falls back to text detection.
   */
  isMention?: boolean;
  /** The platform's payload. Must be JSON-serializable, since queued messages are stored as JSON. */
  raw?: JsonValue;
  /** Links in the message, with their previews. */
  links?: LinkPreview[];
  /** The message this one replies to, when the platform says so. */
  replyTo?: Message;
  /**
   * The message as an mdast tree: what the adapter's converter parsed from the platform's markup
   * (`converter.toAst(platformText)`). Omitted, it is parsed from `text` as markdown on first read.
   */
  formatted?: Root;
}

/** The JSON form of a message. `_type` tags it so stored values can be recognized. */
export interface SerializedMessage {
  _type: "baton:Message";
  id: string;
  threadId: string;
  text: string;
  author: Author;
  metadata: { dateSent: string; edited: boolean; editedAt?: string };
  attachments: SerializedAttachment[];
  isMention?: boolean;
  raw?: JsonValue;
  /** Present only when the message has links; `fetchMessage` is dropped. */
  links?: SerializedLinkPreview[];
  replyTo?: SerializedMessage;
  /** The mdast tree, as upstream serializes it; when absent, `fromJSON` rebuilds it from `text`. */
  formatted?: Root;
}

/**
 * A normalized inbound message. `toJSON()` / `Message.fromJSON()` round-trip every field that
 * can be serialized: dates come back as `Date`s, the thread id is kept, attachments keep their
 * serializable fields (content and fetchers are dropped; an adapter can restore fetchers).
 */
export class Message {
  readonly id: string;
  readonly threadId: string;
  readonly text: string;
  readonly author: Author;
  readonly metadata: MessageMetadata;
  readonly attachments: Attachment[];
  isMention: boolean | undefined;
  readonly raw: JsonValue | undefined;
  readonly links: LinkPreview[];
  readonly replyTo: Message | undefined;
  // Parsing costs more than building a message, and most handlers read only `text`.
  #formatted: Root | undefined;

  constructor(init: MessageInit) {
    this.id = init.id;
    this.threadId = init.threadId;
    this.text = init.text;
    this.author = init.author;
    this.metadata = init.metadata;
    this.attachments = init.attachments ?? [];
    this.isMention = init.isMention;
    this.raw = init.raw;
    this.links = init.links ?? [];
    this.replyTo = init.replyTo;
    this.#formatted = init.formatted;
  }

  /**
   * The message as an mdast tree (see `docs/formatting.md`): the adapter's parse of the platform
   * markup, or `text` parsed as markdown, once, on first read. The same tree on every read: copy it
   * before changing it.
   */
  get formatted(): Root {
    this.#formatted ??= parseMarkdown(this.text);
    return this.#formatted;
  }

  /**
   * What the conversation is about (an issue, a pull request), loaded from the adapter on first
   * read and shared by every later read; `null` when the adapter has none. See `setMessageAdapter`.
   */
  get subject(): Promise<MessageSubject | null> {
    return subjectOf(this, this.threadId);
  }

  /** The Workflow SDK's serializer (`@workflow/serde`): the same JSON as {@link toJSON}. */
  static [WORKFLOW_SERIALIZE](message: Message): SerializedMessage {
    return message.toJSON();
  }

  /** The Workflow SDK's deserializer: {@link Message.fromJSON}. */
  static [WORKFLOW_DESERIALIZE](json: SerializedMessage): Message {
    return Message.fromJSON(json);
  }

  /** The JSON form; called by `JSON.stringify`. */
  toJSON(): SerializedMessage {
    const metadata: SerializedMessage["metadata"] = {
      dateSent: this.metadata.dateSent.toISOString(),
      edited: this.metadata.edited,
    };
    if (this.metadata.editedAt) metadata.editedAt = this.metadata.editedAt.toISOString();
    const json: SerializedMessage = {
      _type: "baton:Message",
      id: this.id,
      threadId: this.threadId,
      text: this.text,
      author: { ...this.author },
      metadata,
      attachments: this.attachments.map(serializeAttachment),
      formatted: this.formatted,
    };
    if (this.isMention !== undefined) json.isMention = this.isMention;
    if (this.raw !== undefined) json.raw = this.raw;
    if (this.links.length > 0) json.links = this.links.map(serializeLinkPreview);
    if (this.replyTo) json.replyTo = this.replyTo.toJSON();
    return json;
  }

  /**
   * Rebuilds a message from its JSON form (an object, or the parsed result of a stored string).
   * Throws a `ValidationError` naming the first bad field when the value is not a serialized
   * message, so corrupt queue entries are reported instead of half-dispatched.
   */
  static fromJSON(json: SerializedMessage): Message {
    assertSerializedMessage(json);
    const metadata: MessageMetadata = {
      dateSent: parseDate(json.metadata.dateSent, "metadata.dateSent"),
      edited: json.metadata.edited,
    };
    if (json.metadata.editedAt !== undefined) {
      metadata.editedAt = parseDate(json.metadata.editedAt, "metadata.editedAt");
    }
    const init: MessageInit = {
      id: json.id,
      threadId: json.threadId,
      text: json.text,
      author: { ...json.author },
      metadata,
      attachments: (json.attachments ?? []).map((attachment) => ({ ...attachment })),
    };
    if (json.isMention !== undefined) init.isMention = json.isMention;
    if (json.raw !== undefined) init.raw = json.raw;
    if (json.links !== undefined) init.links = json.links.map((link) => ({ ...link }));
    if (json.replyTo !== undefined) {
      // A JSON.parse reviver revives the nested message first.
      const replyTo: SerializedMessage | Message = json.replyTo;
      init.replyTo = replyTo instanceof Message ? replyTo : Message.fromJSON(replyTo);
    }
    if (json.formatted !== undefined) init.formatted = json.formatted;
    return new Message(init);
  }
}

function parseDate(value: unknown, field: string): Date {
  // `new Date(null)` and `new Date(0)` are valid dates (1970), so only strings are accepted.
  const date = typeof value === "string" ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new ValidationError(`${field} is not an ISO date: ${JSON.stringify(value)}`, {
      step: "deserialize message",
    });
  }
  return date;
}

function assertSerializedMessage(value: unknown): asserts value is SerializedMessage {
  const fail = (problem: string): never => {
    throw new ValidationError(problem, { step: "deserialize message" });
  };
  if (typeof value !== "object" || value === null) fail("expected an object");
  const json = value as Record<string, unknown>;
  if (json._type !== "baton:Message") fail(`_type must be "baton:Message"`);
  for (const field of ["id", "threadId", "text"] as const) {
    if (typeof json[field] !== "string") fail(`${field} must be a string`);
  }
  if (typeof json.author !== "object" || json.author === null) fail("author must be an object");
  const metadata = json.metadata as Record<string, unknown> | undefined;
  if (typeof metadata !== "object" || metadata === null) fail("metadata must be an object");
  if (typeof metadata?.dateSent !== "string") fail("metadata.dateSent must be a string");
  if (json.attachments !== undefined && !Array.isArray(json.attachments)) {
    fail("attachments must be an array");
  }
  if (json.links !== undefined && !Array.isArray(json.links)) fail("links must be an array");
  const formatted = json.formatted as { type?: unknown; children?: unknown } | undefined;
  if (
    formatted !== undefined &&
    (typeof formatted !== "object" ||
      formatted === null ||
      formatted.type !== "root" ||
      !Array.isArray(formatted.children))
  ) {
    fail('formatted must be an mdast root ({ type: "root", children: [...] })');
  }
}
