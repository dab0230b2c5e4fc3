import { type PostableMessage, ValidationError } from "@baton/core";

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
  "postEphemeral",
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
   * The thread the call targeted. For `openDM` it is the thread id of the direct conversation the
   * call opens.
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

/** The text a postable message shows: the string itself, its markdown, or its raw text. */
export function postableText(message: PostableMessage): string {
  if (typeof message === "string") return message;
  if ("markdown" in message) return message.markdown;
  return message.raw;
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
      const args = call.args.slice(call.method === "openDM" ? 0 : 1);
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

/** Throws a `ValidationError` unless `message` is a string, `{ markdown }` or `{ raw }`. */
export function assertPostable(message: unknown): asserts message is PostableMessage {
  const record = message as { markdown?: unknown; raw?: unknown } | null;
  const ok =
    typeof message === "string" ||
    (typeof record === "object" &&
      record !== null &&
      (typeof record.markdown === "string" || typeof record.raw === "string"));
  if (!ok) {
    throw new ValidationError("message must be a string, { markdown } or { raw }", {
      step: "post message",
    });
  }
}
