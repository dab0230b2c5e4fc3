import {
  type Attachment,
  type Author,
  type JsonValue,
  Message,
  type MessageInit,
  ValidationError,
} from "@baton/core";

/** The `dateSent` of test messages unless overridden: 2026-01-01T00:00:00Z, the fake clock's start. */
export const TEST_MESSAGE_DATE_MS = Date.UTC(2026, 0, 1);

/** The thread of test messages unless overridden; a thread of the default mock adapter. */
export const TEST_THREAD_ID = "mock:C123:T1";

/** Fields of {@link createTestMessage} that differ from the defaults. */
export interface TestMessageOverrides {
  /** Default `msg-<n>` from a counter shared by all factories in the process. */
  id?: string;
  /** Default `"mock:C123:T1"`. */
  threadId?: string;
  /** Default `"hello"`. */
  text?: string;
  /** Merged onto {@link createTestAuthor}'s defaults. */
  author?: Partial<Author>;
  /** Default 2026-01-01T00:00:00Z. A number is epoch milliseconds. */
  dateSent?: Date | number | string;
  /** Default false; true when `editedAt` is given. */
  edited?: boolean;
  editedAt?: Date | number | string;
  /** Default none. */
  attachments?: Attachment[];
  /** Default `undefined` ("unknown"; the core detects mentions in the text). */
  isMention?: boolean;
  raw?: JsonValue;
}

let messageCount = 0;

/**
 * A human author: `{ userId: "U_USER", userName: "user", fullName: "Test User", isBot: false,
 * isMe: false }` with `overrides` applied. A fresh object on every call.
 */
export function createTestAuthor(overrides: Partial<Author> = {}): Author {
  return {
    userId: "U_USER",
    userName: "user",
    fullName: "Test User",
    isBot: false,
    isMe: false,
    ...overrides,
  };
}

/**
 * A core `Message` with test defaults: id `msg-<n>` (a counter, so every message is distinct for
 * dedupe), thread `mock:C123:T1`, text `hello`, a human author `U_USER`, sent at a fixed date,
 * not edited, no attachments, `isMention` unknown. Dates are fresh objects on every call.
 */
export function createTestMessage(overrides: TestMessageOverrides = {}): Message {
  messageCount += 1;
  const editedAt = overrides.editedAt === undefined ? undefined : toDate(overrides.editedAt);
  const init: MessageInit = {
    id: overrides.id ?? `msg-${messageCount}`,
    threadId: overrides.threadId ?? TEST_THREAD_ID,
    text: overrides.text ?? "hello",
    author: createTestAuthor(overrides.author),
    metadata: {
      dateSent: toDate(overrides.dateSent ?? TEST_MESSAGE_DATE_MS),
      edited: overrides.edited ?? editedAt !== undefined,
      ...(editedAt === undefined ? {} : { editedAt }),
    },
    attachments: overrides.attachments ? [...overrides.attachments] : [],
  };
  if (overrides.isMention !== undefined) init.isMention = overrides.isMention;
  if (overrides.raw !== undefined) init.raw = overrides.raw;
  return new Message(init);
}

/** {@link createTestMessage} with `text` and `isMention: true`, as an adapter that knows it sets. */
export function createMentionMessage(
  text: string,
  overrides: Omit<TestMessageOverrides, "text" | "isMention"> = {},
): Message {
  return createTestMessage({ ...overrides, text, isMention: true });
}

/** Restarts the `msg-<n>` counter at 1, for tests that assert on generated ids. */
export function resetTestMessageIds(): void {
  messageCount = 0;
}

function toDate(value: Date | number | string): Date {
  const date = new Date(value instanceof Date ? value.getTime() : value);
  if (Number.isNaN(date.getTime())) {
    throw new ValidationError(`not a date: ${JSON.stringify(value)}`, {
      step: "create test message",
    });
  }
  return date;
}
