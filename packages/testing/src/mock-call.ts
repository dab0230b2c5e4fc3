import type { AdapterPostableMessage } from "@baton/core";

/** Every outbound method of the mock adapter that is recorded, in the Adapter contract's order. */
export const MOCK_METHODS = [
  "postMessage",
  "editMessage",
  "deleteMessage",
  "addReaction",
  "removeReaction",
  "startTyping",
  "fetchMessages",
  "stream",
  "openDM",
  "openModal",
  "postEphemeral",
  "scheduleMessage",
  "getUser",
  "markAsRead",
  "reply",
  "fetchThread",
  "fetchChannelInfo",
  "listThreads",
] as const;

/** The name of a recorded outbound method of {@link MockAdapter}. */
export type MockMethod = (typeof MOCK_METHODS)[number];

/**
 * One recorded outbound call. Records are appended in the order the calls were made, including
 * calls that failed; what you read from `adapter.calls` is a copy, so changing it changes nothing.
 */
export interface MockCall {
  /** The adapter method that was called. */
  readonly method: MockMethod;
  /**
   * The thread (or channel) the call targeted. For `openDM` it is the thread id of the direct
   * conversation the call opens; for `getUser`, the user id looked up.
   */
  readonly threadId: string;
  /**
   * The arguments as passed (trailing `undefined` arguments omitted), cloned. For `stream` the
   * async iterable is replaced by the array of chunks read from it so far.
   */
  readonly args: readonly unknown[];
  /** The adapter clock's time (epoch milliseconds) when the call was made. */
  readonly at: number;
  /** The error the call rejected with (validation failure or `failNext`); absent on success. */
  readonly error?: unknown;
}

/** Tells whether `value` names a recorded method. */
export function isMockMethod(value: unknown): value is MockMethod {
  return typeof value === "string" && (MOCK_METHODS as readonly string[]).includes(value);
}

/**
 * The text a postable message shows, for `posted`: the string itself, its markdown or raw text,
 * the text of an mdast tree's leaves, or a card's fallback text (else its title).
 */
export function postableText(message: AdapterPostableMessage): string {
  if (typeof message === "string") return message;
  if ("markdown" in message) return message.markdown;
  if ("raw" in message) return message.raw;
  if ("ast" in message) return leafText(message.ast);
  if ("card" in message) return message.fallbackText ?? cardTitle(message.card);
  return cardTitle(message);
}

function leafText(node: unknown): string {
  const { value, children } = node as { value?: unknown; children?: unknown };
  if (typeof value === "string") return value;
  return Array.isArray(children) ? children.map(leafText).join("") : "";
}

function cardTitle(card: unknown): string {
  const title = (card as { title?: unknown }).title;
  return typeof title === "string" ? title : "";
}

/** A deep copy of a record, so callers can never change what the adapter recorded. */
export function copyCall(call: MockCall): MockCall {
  const copy: { -readonly [K in keyof MockCall]: MockCall[K] } = {
    method: call.method,
    threadId: call.threadId,
    args: Object.freeze(call.args.map(cloneArg)),
    at: call.at,
  };
  if ("error" in call) copy.error = call.error;
  return Object.freeze(copy);
}

/**
 * A deep copy of a call argument; a value that cannot be cloned (it holds a function, say) is kept
 * as it is rather than failing the call.
 */
export function cloneArg(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

/** One line per call, for failure messages: `postMessage mock:C1:T1 ["hi"]`. */
export function describeCalls(calls: readonly MockCall[]): string {
  if (calls.length === 0) return "  (no calls)";
  return calls
    .map((call, index) => {
      const userCall = call.method === "openDM" || call.method === "getUser";
      const args = call.args.slice(userCall ? 0 : 1);
      const failed = "error" in call ? " (failed)" : "";
      return `  ${index + 1}. ${call.method} ${call.threadId} ${safeJson(args)}${failed}`;
    })
    .join("\n");
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The arguments without trailing `undefined`s, as a caller that left them out passed them. */
export function trimArgs(args: readonly unknown[]): unknown[] {
  const copy = [...args];
  while (copy.length > 0 && copy[copy.length - 1] === undefined) copy.pop();
  return copy;
}
