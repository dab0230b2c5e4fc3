import { type Attachment, type Author, type JsonValue, Message, toPlainText } from "@baton/core";
import { SlackFormatConverter } from "./format.js";
import { labelSlackMentions, type SlackNameSnapshot } from "./inbound-mentions.js";
import { type SlackLinkedMessageFetcher, slackLinksOf } from "./links.js";
import type { SlackEvent, SlackFile } from "./parse.js";
import { slackTablesOf, withSlackTables } from "./slack-tables.js";
import { encodeSlackMessageId, encodeSlackThreadId, isSlackDMChannel } from "./thread-id.js";

const CONVERTER = new SlackFormatConverter();

/** Who the bot is, as far as the adapter knows: to mark its own messages and mentions. */
export interface SlackSelf {
  readonly botUserId: string | undefined;
  readonly botId: string | undefined;
  readonly userName: string;
}

/**
 * Message subtypes that are someone saying something: dispatched as messages. Everything else
 * (joins, leaves, topic and purpose changes, pins, …) is channel housekeeping and ignored;
 * `message_changed` and `message_deleted` are edits and deletes.
 */
const SPOKEN_SUBTYPES = new Set([
  undefined,
  "bot_message",
  "file_share",
  "thread_broadcast",
  "me_message",
]);

/** True when the event is a message someone posted (not housekeeping, not an edit). */
export function isSpokenMessage(event: SlackEvent): boolean {
  return SPOKEN_SUBTYPES.has(event.subtype);
}

/**
 * The thread of a message: its parent's `ts` when it is a reply; its own `ts` when it starts a
 * thread in a channel; empty at the top level of a DM (upstream's rule, matching `openDM`).
 */
export function slackThreadIdOf(channel: string, ts: string, threadTs: string | undefined) {
  if (threadTs) return encodeSlackThreadId({ channel, threadTs });
  return encodeSlackThreadId({ channel, threadTs: isSlackDMChannel(channel) ? "" : ts });
}

/** Slack's own system user, the author of its notifications. */
const SYSTEM_USER = /^USLACK(?:BOT)?$/;

/**
 * The author of a Slack message. Names are the ids until a lookup (`getUser`) says more; with a
 * name snapshot, a cached user gives its name, real name and email.
 */
export function slackAuthor(event: SlackEvent, self: SlackSelf, names?: SlackNameSnapshot): Author {
  const isMe =
    (self.botUserId !== undefined && event.user === self.botUserId) ||
    (self.botId !== undefined && event.bot_id === self.botId);
  const userId = event.user ?? event.bot_id ?? "unknown";
  const known = isMe || event.user === undefined ? undefined : names?.user(event.user);
  const name = isMe ? self.userName : (known?.userName ?? event.username ?? userId);
  const isSystem = !isMe && event.user !== undefined && SYSTEM_USER.test(event.user);
  return {
    userId,
    userName: name,
    fullName: known?.fullName ?? name,
    isBot: !isSystem && (isMe || event.bot_id !== undefined || event.subtype === "bot_message"),
    isMe,
    ...(isSystem ? { isSystem } : {}),
    ...(known?.email === undefined ? {} : { email: known.email }),
  };
}

function attachmentOf(file: SlackFile): Attachment {
  const mime = file.mimetype;
  const type = mime?.startsWith("image/")
    ? "image"
    : mime?.startsWith("video/")
      ? "video"
      : mime?.startsWith("audio/")
        ? "audio"
        : "file";
  return {
    type,
    ...(file.url_private === undefined ? {} : { url: file.url_private }),
    ...(file.name === undefined ? {} : { name: file.name }),
    ...(mime === undefined ? {} : { mimeType: mime }),
    ...(file.size === undefined ? {} : { size: file.size }),
    ...(file.original_w === undefined ? {} : { width: file.original_w }),
    ...(file.original_h === undefined ? {} : { height: file.original_h }),
    fetchMetadata: { slackFileId: file.id ?? "", slackUrl: file.url_private ?? "" },
  };
}

function dateOf(ts: string | undefined): Date {
  const seconds = Number(ts);
  return Number.isFinite(seconds) ? new Date(Math.round(seconds * 1_000)) : new Date(0);
}

/** What {@link messageFromSlack} needs besides the event. */
export interface SlackMessageContext {
  readonly team: string;
  readonly channel: string;
  readonly self: SlackSelf;
  /** True for an `app_mention`: Slack says the bot was mentioned. */
  readonly mentioned?: boolean;
  readonly withFetcher?: (attachment: Attachment) => Attachment;
  /** Cached names: `<@U…>` / `<#C…>` read as `@name` / `#name`, the author named. */
  readonly names?: SlackNameSnapshot;
  /** Loads linked Slack messages: links to them get a `fetchMessage`. */
  readonly fetchLinked?: SlackLinkedMessageFetcher;
}

/**
 * A Baton message from a Slack message event (or a history item). Text is the mrkdwn read as
 * plain text (mentions as `@U…`); `formatted` its tree, with the message's tables (`table` and
 * `data_table` blocks, tables pasted as attachments) above or below it. `isMention` is set from
 * Slack's own signal (an `app_mention`, or `<@bot>` in the text); in DMs it is left unset, as
 * upstream, since DMs reach `onDirectMessage` handlers anyway.
 */
export function messageFromSlack(event: SlackEvent, context: SlackMessageContext): Message {
  const ts = event.ts ?? "";
  const text = event.text ?? "";
  const { botUserId } = context.self;
  const dm = isSlackDMChannel(context.channel);
  const mentioned =
    context.mentioned === true || (botUserId !== undefined && text.includes(`<@${botUserId}`));
  // One parse serves both: the tree, and the plain text read off it.
  const { names } = context;
  const selfIds = new Set(botUserId === undefined ? [] : [botUserId]);
  const parse = (mrkdwn: string) =>
    CONVERTER.toAst(names === undefined ? mrkdwn : labelSlackMentions(mrkdwn, names, selfIds));
  const formatted = withSlackTables(parse(text), slackTablesOf(event), parse);
  const withFetcher = context.withFetcher ?? ((attachment: Attachment) => attachment);
  const edited = event.edited?.ts;
  return new Message({
    // No ts, no id (upstream's rule): such a payload cannot be dispatched or replied to.
    id: ts === "" ? "" : encodeSlackMessageId(context.team, context.channel, ts),
    threadId: slackThreadIdOf(context.channel, ts, event.thread_ts),
    text: toPlainText(formatted),
    formatted,
    author: slackAuthor(event, context.self, context.names),
    metadata: {
      dateSent: dateOf(ts),
      edited: edited !== undefined,
      ...(edited === undefined ? {} : { editedAt: dateOf(edited) }),
    },
    attachments: (event.files ?? []).map(attachmentOf).map(withFetcher),
    links: slackLinksOf(event, context.fetchLinked),
    ...(dm && !mentioned ? {} : { isMention: mentioned }),
    raw: event as unknown as JsonValue,
  });
}
