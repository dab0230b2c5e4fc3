import { type Clock, sleep, systemClock } from "../clock/index.js";
import type { StreamChunk } from "../content/from-full-stream-chunks.js";
import { closeOpenMarkdown } from "../content/streaming-markdown-repair.js";
import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import { ValidationError } from "../errors/index.js";
import { callAdapter } from "./adapter-call.js";
import { type EditTarget, type PostedMessage, streamByEditing } from "./stream-fallback.js";
import { type StreamInput, type StreamMessageOptions, streamParts } from "./stream-message.js";
import { StreamSource } from "./stream-source.js";

/** The least time between two edits of post + edit streaming when nothing else is set: 500 ms. */
export const DEFAULT_STREAMING_UPDATE_INTERVAL_MS = 500;

/** The placeholder post + edit streaming posts first, unless configured: upstream's `"..."`. */
export const DEFAULT_STREAMING_PLACEHOLDER_TEXT = "...";

/**
 * The paragraph a stream stopped by its handler's `signal` ends with, so a reader sees that the
 * answer was cut off rather than finished.
 */
export const STREAM_STOPPED_MARKER = "_(stopped)_";

/** Streaming settings from the Chat config; every field optional. */
export interface StreamingSettings {
  /** The Chat's `streamingUpdateIntervalMs`, when set: beats the adapter's default. */
  readonly updateIntervalMs?: number;
  /** The Chat's `fallbackStreamingPlaceholderText`: `null` posts no placeholder. Default `"..."`. */
  readonly placeholderText?: string | null;
  /** Paces the edits. Default: the system clock. */
  readonly clock?: Clock;
}

/** Options of a native `adapter.stream` call (upstream's `StreamOptions`). */
export interface NativeStreamOptions {
  recipientUserId?: string;
  recipientTeamId?: string;
  stopBlocks?: unknown[];
  taskDisplayMode?: "plan" | "timeline";
  updateIntervalMs?: number;
  /** The Chat's placeholder, only when configured (a string, or `null` for none). */
  fallbackStreamingPlaceholderText?: string | null;
}

/** An adapter with upstream's optional native streaming; `null` means "stream it for me". */
interface StreamingAdapter {
  stream?(
    threadId: string,
    stream: AsyncIterable<string | StreamChunk>,
    options?: NativeStreamOptions,
  ): Promise<PostedMessage | null>;
  readonly streamingUpdateIntervalMs?: number;
  readonly capabilities?: { readonly streaming?: unknown };
}

/** Where a stream goes and how it is sent. */
export interface StreamPostRequest {
  readonly adapter: Adapter;
  /** The thread or channel posted to. */
  readonly threadId: string;
  /** Posts a new message there (a thread's `postMessage`, a channel's channel post). */
  post(content: string | { markdown: string }): Promise<PostedMessage>;
  readonly logger: Logger;
  readonly settings: StreamingSettings;
  /** The handler's `context.signal`: aborting it stops the stream. */
  readonly signal?: AbortSignal;
  /** What the current message says about its recipient (Slack's assistant streams). */
  readonly recipient?: Pick<NativeStreamOptions, "recipientUserId" | "recipientTeamId">;
}

/** A posted stream. */
export interface StreamPostResult {
  readonly message: PostedMessage;
  /** The thread the message lives in. */
  readonly threadId: string;
  /** The complete markdown the stream produced. */
  readonly markdown: string;
}

/**
 * Posts a stream (`thread.post(stream)`), by the adapter's means:
 * - native (`capabilities.streaming` `"native"`, or undeclared, with a `stream` method):
 *   `adapter.stream(threadId, chunks, options)`; an answer of `null` falls back to post + edit
 *   with the rest of the stream;
 * - `"edit"` or no `stream` method: post + edit at the throttle ({@link streamByEditing}), then
 *   one final edit with the complete markdown;
 * - `false` (no edits, such as SMS): one post of the complete markdown when the stream ends.
 * The edit interval: the stream's own `updateIntervalMs`, else the Chat's, else the adapter's
 * `streamingUpdateIntervalMs`, else {@link DEFAULT_STREAMING_UPDATE_INTERVAL_MS} — raised to the
 * adapter's `minStreamingUpdateIntervalMs(threadId)` when it declares one, which the final edit
 * waits out too.
 *
 * A `signal` that already aborted rejects at once with its reason, before any platform call.
 * When `signal` aborts, reading stops at once, the source is closed, the message is edited (or
 * posted) one last time with the text so far, repaired, and {@link STREAM_STOPPED_MARKER}, and
 * the promise rejects with the signal's reason.
 */
export async function postStream(
  request: StreamPostRequest,
  input: StreamInput,
): Promise<StreamPostResult> {
  const { stream, options } = streamParts(input);
  const source = new StreamSource(stream, request.signal);
  if (request.signal?.aborted === true) {
    source.release(); // stopped before it started: no platform call at all
    throw request.signal.reason;
  }
  try {
    return await postFrom(request, source, options);
  } finally {
    source.release(); // a consumer that stopped early, an error: the source is closed either way
  }
}

async function postFrom(
  request: StreamPostRequest,
  source: StreamSource,
  options: Readonly<StreamMessageOptions>,
): Promise<StreamPostResult> {
  const adapter = request.adapter as Adapter & StreamingAdapter;
  const mode = streamingMode(adapter);
  const step = `stream message to ${request.threadId}`;
  if (mode === "native" && typeof adapter.stream === "function") {
    const native: NativeStreamOptions = { ...request.recipient };
    if (options.groupTasks !== undefined) native.taskDisplayMode = options.groupTasks;
    if (options.endWith !== undefined) native.stopBlocks = options.endWith;
    if (options.updateIntervalMs !== undefined) native.updateIntervalMs = options.updateIntervalMs;
    // Only an explicit setting travels (upstream's rule): an adapter tells "the Chat asked for
    // this placeholder" (Teams shows it as an informative update) from the core's default.
    const placeholder = request.settings.placeholderText;
    if (placeholder !== undefined) native.fallbackStreamingPlaceholderText = placeholder;
    const sent = await callAdapter(
      adapter,
      step,
      async () => (await adapter.stream?.(request.threadId, source.chunks(), native)) ?? null,
      request.logger,
    );
    if (sent !== null) {
      const threadId = sent.threadId || request.threadId;
      if (source.stopped) await markStopped(request, sent, threadId, source.text);
      return { message: sent, threadId, markdown: source.text };
    }
  }
  const target: EditTarget = {
    post: (content) => callAdapter(adapter, step, () => request.post(content), request.logger),
    // Unwrapped: an intermediate edit's failure is only logged, as the platform raised it.
    edit: (messageId, threadId, content) => adapter.editMessage(threadId, messageId, content),
  };
  const floorMs = minUpdateIntervalMs(adapter, request.threadId);
  const clock = request.settings.clock ?? systemClock;
  const edited = await streamByEditing(
    source,
    target,
    {
      updateIntervalMs: Math.max(
        floorMs,
        options.updateIntervalMs ??
          request.settings.updateIntervalMs ??
          adapter.streamingUpdateIntervalMs ??
          DEFAULT_STREAMING_UPDATE_INTERVAL_MS,
      ),
      placeholderText:
        request.settings.placeholderText === undefined
          ? DEFAULT_STREAMING_PLACEHOLDER_TEXT
          : request.settings.placeholderText,
      clock,
      logger: request.logger,
      edits: mode !== "none",
    },
    request.threadId,
  );
  const markdown = edited.renderer.getText();
  if (source.stopped) {
    const content = { markdown: stoppedMarkdown(markdown) };
    if (edited.message === null) await target.post(content);
    else await markStopped(request, edited.message, edited.threadId, markdown);
    throw request.signal?.reason;
  }
  const final = edited.renderer.finish();
  let { message, shown, lastWriteAt } = edited;
  if (message === null) {
    message = await target.post({ markdown: markdown.trim() === "" ? " " : markdown });
    shown = markdown;
    lastWriteAt = clock.now();
  }
  const threadId = message.threadId || edited.threadId;
  if (final.trim() !== "" && final !== shown) {
    const waitMs = lastWriteAt === null ? 0 : lastWriteAt + floorMs - clock.now();
    if (waitMs > 0) await sleep(clock, waitMs);
    const finalStep = `edit message ${message.id} in ${threadId}`;
    const id = message.id;
    await callAdapter(
      adapter,
      finalStep,
      () => target.edit(id, threadId, { markdown }),
      request.logger,
    );
  }
  return { message, threadId, markdown };
}

/** The adapter's floor for this thread's edits (0 without one); a bad answer is refused. */
function minUpdateIntervalMs(adapter: Adapter, threadId: string): number {
  const floorMs = adapter.minStreamingUpdateIntervalMs?.(threadId);
  if (floorMs === undefined) return 0;
  if (typeof floorMs !== "number" || !Number.isFinite(floorMs) || floorMs < 0) {
    const call = `minStreamingUpdateIntervalMs(${JSON.stringify(threadId)})`;
    throw new ValidationError(
      `adapter ${adapter.name}: ${call} must be a finite number of ms ≥ 0, got ${String(floorMs)}`,
      { step: `stream message to ${threadId}` },
    );
  }
  return floorMs;
}

function streamingMode(adapter: StreamingAdapter): "native" | "edit" | "none" {
  const declared = adapter.capabilities?.streaming;
  if (declared === false) return "none";
  if (declared === "edit") return "edit";
  return typeof adapter.stream === "function" ? "native" : "edit";
}

/** The text so far with whatever it left open closed, and the stopped marker after it. */
function stoppedMarkdown(text: string): string {
  const repaired = closeOpenMarkdown(text).trimEnd();
  return repaired === "" ? STREAM_STOPPED_MARKER : `${repaired}\n\n${STREAM_STOPPED_MARKER}`;
}

/** One last edit of a stopped stream's message; a failure is logged, the abort still wins. */
async function markStopped(
  request: StreamPostRequest,
  message: PostedMessage,
  threadId: string,
  text: string,
): Promise<void> {
  try {
    await request.adapter.editMessage(threadId, message.id, { markdown: stoppedMarkdown(text) });
  } catch (error) {
    request.logger.warn("stream stopped, but marking its message stopped failed", error);
  }
  if (request.signal?.aborted !== true) return;
  throw request.signal.reason;
}
