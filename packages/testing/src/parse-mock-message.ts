import {
  type Author,
  type JsonValue,
  Message,
  type MessageInit,
  type SerializedMessage,
  ValidationError,
} from "@baton/core";

/**
 * The mock platform's message payload: the few fields a test needs to say who wrote what where.
 */
export interface MockRawMessage {
  /** The platform message id; the key of dedupe. */
  id: string;
  /** The Baton thread id (`{adapter}:{channel}:{thread}`) the message belongs to. */
  threadId: string;
  text: string;
  /** The author's user id. Default `"U_USER"`. */
  userId?: string;
  /** The author's handle. Default: the user id. */
  userName?: string;
  /** The author's display name. Default: the handle. */
  fullName?: string;
  /** True for a bot author. Default false (true when `userId` is the adapter's bot user id). */
  isBot?: boolean;
  /** Platform knowledge of a mention; absent means "unknown" (the core then detects it in text). */
  isMention?: boolean;
  /** When it was sent: an ISO string or epoch milliseconds. Default: the adapter clock's now. */
  dateSent?: string | number;
}

/** What parsing needs to know about the adapter. */
export interface ParseMockMessageContext {
  botUserId: string;
  now: () => number;
}

/** The default author id of a mock message. */
export const DEFAULT_MOCK_USER_ID = "U_USER";

/**
 * Builds a {@link Message} from a {@link MockRawMessage} or from a message's JSON form
 * (`_type: "baton:Message"`). Throws a `ValidationError` naming the first bad field. Does not
 * check that the thread id belongs to an adapter; the adapter does that.
 */
export function parseMockMessage(raw: unknown, context: ParseMockMessageContext): Message {
  const fail = (problem: string): never => {
    throw new ValidationError(problem, { step: "parse mock message" });
  };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return fail("expected an object");
  }
  const record = raw as Record<string, unknown>;
  if (record._type === "baton:Message")
    return Message.fromJSON(record as never as SerializedMessage);

  for (const field of ["id", "threadId", "text"] as const) {
    if (typeof record[field] !== "string") fail(`${field} must be a string`);
  }
  if (record.id === "") fail("id must not be empty");
  for (const field of ["userId", "userName", "fullName"] as const) {
    const value = record[field];
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      fail(`${field} must be a non-empty string when given`);
    }
  }
  for (const field of ["isBot", "isMention"] as const) {
    if (record[field] !== undefined && typeof record[field] !== "boolean") {
      fail(`${field} must be a boolean when given`);
    }
  }
  const message = record as unknown as MockRawMessage;
  const userId = message.userId ?? DEFAULT_MOCK_USER_ID;
  const userName = message.userName ?? userId;
  const isMe = userId === context.botUserId;
  const author: Author = {
    userId,
    userName,
    fullName: message.fullName ?? userName,
    isBot: message.isBot ?? isMe,
    isMe,
  };
  const init: MessageInit = {
    id: message.id,
    threadId: message.threadId,
    text: message.text,
    author,
    metadata: { dateSent: parseDateSent(message.dateSent, context.now, fail), edited: false },
    raw: JSON.parse(JSON.stringify(record)) as JsonValue,
  };
  if (message.isMention !== undefined) init.isMention = message.isMention;
  return new Message(init);
}

function parseDateSent(value: unknown, now: () => number, fail: (problem: string) => never): Date {
  if (value === undefined) return new Date(now());
  if (typeof value !== "string" && typeof value !== "number") {
    return fail("dateSent must be an ISO string or epoch milliseconds");
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) fail(`dateSent is not a date: ${JSON.stringify(value)}`);
  return date;
}
