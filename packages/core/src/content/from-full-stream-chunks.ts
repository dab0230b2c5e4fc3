/**
 * Structured stream chunks (upstream's `StreamChunk`): besides text, a stream may carry task and
 * plan updates that a platform with native structured streaming (Slack) shows as cards. Plain,
 * JSON-serializable data. Platforms without it see only the text.
 */

/** Markdown text, as a chunk object; counts as text everywhere. */
export interface MarkdownTextChunk {
  readonly type: "markdown_text";
  readonly text: string;
}

/** Progress of one task (a tool call, a step). */
export interface TaskUpdateChunk {
  readonly type: "task_update";
  /** Stable per task: later updates with the same id replace earlier ones. */
  readonly id: string;
  readonly title: string;
  readonly status: "pending" | "in_progress" | "complete" | "error";
  readonly details?: string;
  readonly output?: string;
}

/** The title of the plan the tasks belong to. */
export interface PlanUpdateChunk {
  readonly type: "plan_update";
  readonly title: string;
}

/** A structured chunk of a stream posted with `thread.post(stream)`. */
export type StreamChunk = MarkdownTextChunk | TaskUpdateChunk | PlanUpdateChunk;

/** The `type` of every {@link StreamChunk}. */
export const STREAM_CHUNK_TYPES: readonly StreamChunk["type"][] = Object.freeze([
  "markdown_text",
  "task_update",
  "plan_update",
]);

/** True for an object whose `type` is one of {@link STREAM_CHUNK_TYPES}. */
export function isStreamChunk(value: unknown): value is StreamChunk {
  if (typeof value !== "object" || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return typeof type === "string" && (STREAM_CHUNK_TYPES as readonly string[]).includes(type);
}

/** The text a stream item contributes: a string itself, a `markdown_text` chunk's text, else "". */
export function chunkText(chunk: string | StreamChunk): string {
  if (typeof chunk === "string") return chunk;
  return chunk.type === "markdown_text" && typeof chunk.text === "string" ? chunk.text : "";
}
