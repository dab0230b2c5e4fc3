import type { StreamChunk } from "../content/from-full-stream-chunks.js";
import type { RawMessage } from "./adapter.js";
import type { StreamOptions } from "./thread-surface-types.js";

/**
 * How an adapter takes a streamed reply (`thread.post(stream)`): natively through `stream`, or
 * by letting the runtime post and edit at a pace the platform tolerates. Part of every
 * {@link Adapter}; all members are optional. See docs/streaming.md.
 */
export interface AdapterStreaming {
  /**
   * Streams a reply with the platform's native streaming (capability `streaming: "native"`):
   * reads `textStream` — text, and structured chunks (`StreamChunk`: task and plan updates) a
   * platform may show natively or skip — until it ends and resolves with the finished message.
   * The stream ends early when the handler's signal aborts; the runtime then marks the message
   * stopped with one edit. Resolving `null` without reading declines: the runtime streams by post
   * + edit instead (upstream 4.41).
   */
  stream?(
    threadId: string,
    textStream: AsyncIterable<string | StreamChunk>,
    options?: StreamOptions,
  ): Promise<RawMessage | null>;
  /**
   * The adapter's default time between two edits of a post + edit stream, in ms. The stream's
   * own `updateIntervalMs` and the Chat's `streamingUpdateIntervalMs` override it; 500 applies
   * when all three are absent.
   */
  readonly streamingUpdateIntervalMs?: number;
  /**
   * The least time, in ms, the platform tolerates between two writes of a message streamed by
   * post + edit into `threadId` (a finite number ≥ 0), for platforms whose limit depends on the
   * conversation (Telegram: private chats versus groups). The runtime keeps to it: a shorter
   * interval from the stream, the Chat or {@link streamingUpdateIntervalMs} is raised to it, and
   * the final edit waits until that long after the previous post or edit (only the edit marking
   * a stopped stream is never delayed). Asked once per stream, before anything is posted. Not
   * used for native streaming, whose pace is the adapter's own.
   */
  minStreamingUpdateIntervalMs?(threadId: string): number;
}
