import { isStreamChunk, type StreamChunk } from "./from-full-stream-chunks.js";

/** What separates the text of two steps of a multi-step agent run: a paragraph break. */
export const STEP_SEPARATOR = "\n\n";

/** Step-end events: AI SDK 5 and 6 call it `finish-step`, AI SDK 4 `step-finish`. */
const STEP_END_TYPES = new Set(["finish-step", "step-finish"]);

/**
 * Normalizes any stream a handler may post (upstream's `fromFullStream`):
 * - strings (the AI SDK's `textStream`, any `AsyncIterable<string>`) pass through;
 * - {@link StreamChunk} objects pass through, for adapters that stream them natively;
 * - AI SDK `fullStream` events: a `text-delta` yields its text (`text` in AI SDK 6, `delta`,
 *   or `textDelta` in AI SDK 4, in that order of preference; a non-string is ignored); the end
 *   of a step (`finish-step`) puts {@link STEP_SEPARATOR} before the next text, never before the
 *   first text and never at the end, so a multi-step answer reads as paragraphs;
 * - every other event (tool calls and results, reasoning, `start`, `finish`, errors as events)
 *   and every non-object is skipped.
 * Iterates `stream` lazily, once; closing the result closes `stream`.
 */
export async function* fromFullStream(
  stream: AsyncIterable<unknown>,
): AsyncGenerator<string | StreamChunk, void, undefined> {
  const normalize = createStreamNormalizer();
  for await (const event of stream) yield* normalize(event);
}

/**
 * The step-by-step form of {@link fromFullStream}, for callers that pull the source themselves:
 * each call takes one source item and returns what it yields (none, one, or a step separator
 * and a text). Keeps the step state between calls; one normalizer per stream.
 */
export function createStreamNormalizer(): (event: unknown) => (string | StreamChunk)[] {
  let stepEnded = false;
  let textSeen = false;
  return (event) => {
    if (typeof event === "string") {
      if (event === "") return [];
      textSeen = true;
      return [event];
    }
    if (isStreamChunk(event)) return [event];
    if (typeof event !== "object" || event === null) return [];
    const { type } = event as { type?: unknown };
    if (type === "text-delta") {
      const text = deltaText(event as Record<string, unknown>);
      if (text === undefined) return [];
      const out = stepEnded && textSeen ? [STEP_SEPARATOR, text] : [text];
      stepEnded = false;
      textSeen = true;
      return out;
    }
    if (typeof type === "string" && STEP_END_TYPES.has(type)) stepEnded = true;
    return [];
  };
}

function deltaText(event: Record<string, unknown>): string | undefined {
  for (const field of ["text", "delta", "textDelta"]) {
    const value = event[field];
    if (value !== undefined && value !== null) return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

/**
 * Reads a stream to its end and returns its text (strings and `markdown_text` chunks; other
 * chunks contribute nothing). For adapters that post a stream as one message.
 */
export async function accumulateStream(
  stream: AsyncIterable<string | StreamChunk>,
): Promise<string> {
  let text = "";
  for await (const chunk of stream) {
    if (typeof chunk === "string") text += chunk;
    else if (chunk.type === "markdown_text") text += chunk.text;
  }
  return text;
}
