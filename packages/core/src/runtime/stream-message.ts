import type { StreamChunk } from "../content/from-full-stream-chunks.js";
import { ValidationError } from "../errors/index.js";

/** Options of {@link StreamMessage} (upstream's `StreamMessageOptions`). */
export interface StreamMessageOptions {
  /** Blocks attached when the stream stops (Slack's native streaming); passed as `stopBlocks`. */
  endWith?: unknown[];
  /** How task updates show on Slack: one plan block, or cards inline (`timeline`, Slack's default). */
  groupTasks?: "plan" | "timeline";
  /**
   * The least time between two edits of the post + edit fallback, in ms, for this stream only;
   * overrides the Chat's `streamingUpdateIntervalMs` and the adapter's default.
   */
  updateIntervalMs?: number;
}

/**
 * A stream with posting options (upstream's `StreamMessage`, formerly `StreamingPlan`): use it to
 * pass options to `thread.post`; a bare async iterable posts with none.
 */
export class StreamMessage {
  /** Marks the object for `thread.post`, like upstream's postable objects. */
  readonly kind = "stream" as const;
  readonly stream: AsyncIterable<unknown>;
  readonly options: Readonly<StreamMessageOptions>;

  constructor(
    stream: AsyncIterable<string | StreamChunk | unknown>,
    options: StreamMessageOptions = {},
  ) {
    const step = "create stream message";
    if (!isAsyncIterable(stream)) {
      throw new ValidationError("stream must be an async iterable", { step });
    }
    const interval = options.updateIntervalMs;
    if (interval !== undefined && !(Number.isFinite(interval) && interval > 0)) {
      throw new ValidationError("updateIntervalMs must be a positive number of milliseconds", {
        step,
      });
    }
    if (options.groupTasks !== undefined && !["plan", "timeline"].includes(options.groupTasks)) {
      throw new ValidationError('groupTasks must be "plan" or "timeline"', { step });
    }
    if (options.endWith !== undefined && !Array.isArray(options.endWith)) {
      throw new ValidationError("endWith must be an array", { step });
    }
    this.stream = stream;
    this.options = Object.freeze({ ...options });
  }
}

/** @deprecated Upstream's earlier name of {@link StreamMessage}. */
export const StreamingPlan = StreamMessage;
/** @deprecated Upstream's earlier name of {@link StreamMessage}. */
export type StreamingPlan = StreamMessage;

/** What `post` accepts as a stream: any async iterable, or a {@link StreamMessage}. */
export type StreamInput = AsyncIterable<unknown> | StreamMessage;

/** True for an async iterable or a {@link StreamMessage}: what `post` streams. */
export function isStreamInput(value: unknown): value is StreamInput {
  return value instanceof StreamMessage || isAsyncIterable(value);
}

/** The stream and its options, whichever form was posted. */
export function streamParts(input: StreamInput): {
  stream: AsyncIterable<unknown>;
  options: Readonly<StreamMessageOptions>;
} {
  return input instanceof StreamMessage
    ? { stream: input.stream, options: input.options }
    : { stream: input, options: {} };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}
