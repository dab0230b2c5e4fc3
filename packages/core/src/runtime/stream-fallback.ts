import type { Clock, ClockTimer } from "../clock/index.js";
import { StreamingMarkdownRenderer } from "../content/streaming-markdown.js";
import type { Logger } from "../contracts/logger.js";
import type { StreamSource } from "./stream-source.js";

/** The platform's answer to a post or an edit, as far as streaming needs it. */
export interface PostedMessage {
  readonly id: string;
  readonly threadId?: string;
  readonly raw?: unknown;
}

/** The calls post + edit streaming makes, bound to one thread. */
export interface EditTarget {
  post(content: string | { markdown: string }): Promise<PostedMessage>;
  edit(messageId: string, threadId: string, content: { markdown: string }): Promise<unknown>;
}

/** How post + edit streaming paces itself. */
export interface EditPacing {
  /** The least time between the end of one edit and the start of the next, in ms. */
  readonly updateIntervalMs: number;
  /** Posted first, as plain text, and edited as text arrives; `null`: post once text exists. */
  readonly placeholderText: string | null;
  readonly clock: Clock;
  readonly logger: Logger;
  /** `false` (a platform without edits): no placeholder and no intermediate edits. */
  readonly edits: boolean;
}

/** What post + edit streaming left behind. */
export interface EditStreamResult {
  /** `null` when nothing was posted yet (no placeholder, no text, or no edits). */
  readonly message: PostedMessage | null;
  /** The thread edits went to: the one the platform reported, else the one posted to. */
  readonly threadId: string;
  /** The content the message shows now, as far as the stream knows. */
  readonly shown: string;
  /** Clock time the last post or edit of the message settled (failed ones too); `null`: none. */
  readonly lastWriteAt: number | null;
  readonly renderer: StreamingMarkdownRenderer;
}

/**
 * Upstream's fallback streaming: post a placeholder (or, without one, the first text), then edit
 * the message every `updateIntervalMs` with the renderer's repaired markdown while text arrives.
 * The next edit is scheduled only after the previous one settled, so at most one edit is in
 * flight; an edit that fails is logged (`fallbackStream edit failed`) and the stream goes on. An
 * edit is skipped when the content is blank or unchanged. Returns once the stream ended (or was
 * stopped) and the edit in flight settled; the final edit is the caller's.
 */
export async function streamByEditing(
  source: StreamSource,
  target: EditTarget,
  pacing: EditPacing,
  threadId: string,
): Promise<EditStreamResult> {
  const renderer = new StreamingMarkdownRenderer();
  renderer.push(source.text); // text an adapter read before it declined to stream
  const placeholder = pacing.edits ? pacing.placeholderText : null;
  let message: PostedMessage | null = placeholder === null ? null : await target.post(placeholder);
  let lastWriteAt = message === null ? null : pacing.clock.now();
  let editThreadId = message?.threadId || threadId;
  let shown = placeholder ?? "";
  let timer: ClockTimer | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped = false;

  const schedule = (): void => {
    if (!pacing.edits || stopped) return;
    timer = pacing.clock.setTimeout(() => {
      timer = undefined;
      inFlight = editNow();
    }, pacing.updateIntervalMs);
  };
  const editNow = async (): Promise<void> => {
    if (stopped || message === null) return;
    const content = renderer.render();
    if (content.trim() !== "" && content !== shown) {
      try {
        await target.edit(message.id, editThreadId, { markdown: content });
        shown = content;
      } catch (error) {
        pacing.logger.warn("fallbackStream edit failed", error);
      }
      // A refused edit may still count against the platform's limit, so it paces the next one.
      lastWriteAt = pacing.clock.now();
    }
    schedule();
  };

  if (message !== null) schedule();
  try {
    for await (const text of source.texts()) {
      renderer.push(text);
      if (message !== null || !pacing.edits) continue;
      const content = renderer.render();
      if (content.trim() === "") continue;
      message = await target.post({ markdown: content });
      lastWriteAt = pacing.clock.now();
      editThreadId = message.threadId || threadId;
      shown = content;
      schedule();
    }
  } finally {
    stopped = true;
    if (timer !== undefined) pacing.clock.clearTimeout(timer);
    await inFlight;
  }
  return { message, threadId: editThreadId, shown, lastWriteAt, renderer };
}
