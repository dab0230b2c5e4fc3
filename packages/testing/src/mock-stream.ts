import type { RawMessage, StreamChunk, StreamOptions } from "@baton/core";
import type { MockCore } from "./mock-core.js";

/**
 * `stream` (capability `streaming: "native"`): records the call — its args hold the chunks read
 * so far, so a test sees a stream in progress — reads `chunks` to the end and answers
 * `{ id: "mock-msg-<n>", threadId }`. The joined text counts as posted once the stream ends.
 */
export function mockStream(
  core: MockCore,
  threadId: string,
  chunks: AsyncIterable<string | StreamChunk>,
  options?: StreamOptions,
): Promise<RawMessage> {
  const read: string[] = [];
  const args = options === undefined ? [threadId, read] : [threadId, read, options];
  return core.call("stream", threadId, args, "streaming", async () => {
    // Structured chunks (task and plan updates) carry no text, except `markdown_text`.
    for await (const chunk of chunks) {
      if (typeof chunk === "string") read.push(chunk);
      else if (chunk.type === "markdown_text") read.push(chunk.text);
    }
    return core.sent(threadId);
  });
}
