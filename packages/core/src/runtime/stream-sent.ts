import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { Message } from "../model/message.js";
import { createSentMessageHandle, type SentMessage } from "./sent-message.js";
import type { PostedMessage } from "./stream-fallback.js";
import { type StreamInput, streamParts } from "./stream-message.js";
import { postStream, type StreamingSettings } from "./stream-post.js";
import { StreamSource } from "./stream-source.js";

/** What a thread or channel hands to {@link postStreamFrom}. */
export interface StreamPoster {
  readonly adapter: Adapter;
  /** The thread or channel posted to. */
  readonly id: string;
  readonly logger: Logger;
  readonly streaming: StreamingSettings;
  /** The handler's `context.signal`, when the poster belongs to a handler run. */
  readonly signal?: AbortSignal;
  /** The message being handled: its author is the stream's recipient. */
  readonly currentMessage?: Message;
  /** Posts one new message where the stream goes. */
  post(content: string | { markdown: string }): Promise<PostedMessage>;
}

/**
 * Posts `input` (see `postStream`) and returns the sent message, whose `text` and `formatted`
 * are those of the complete streamed markdown (upstream's `SentMessage`).
 */
export async function postStreamFrom(
  poster: StreamPoster,
  input: StreamInput,
): Promise<SentMessage> {
  const recipientUserId = poster.currentMessage?.author.userId;
  const result = await postStream(
    {
      adapter: poster.adapter,
      threadId: poster.id,
      post: (content) => poster.post(content),
      logger: poster.logger,
      settings: poster.streaming,
      ...(poster.signal ? { signal: poster.signal } : {}),
      ...(recipientUserId ? { recipient: { recipientUserId } } : {}),
    },
    input,
  );
  // The sent message's text and formatted tree are those of the complete markdown (upstream's).
  return createSentMessageHandle(
    poster.adapter,
    { ...result.message, threadId: result.threadId },
    poster.id,
    poster.logger,
    { markdown: result.markdown },
  );
}

/**
 * Reads a posted stream to its end and returns its markdown, `" "` when it produced no text (a
 * post must not be empty): how a channel posts a stream, as upstream does — one message, once
 * the stream ended.
 */
export async function collectStreamMarkdown(input: StreamInput): Promise<{ markdown: string }> {
  const source = new StreamSource(streamParts(input).stream, undefined);
  for await (const _ of source.texts()) {
    // the source collects the text
  }
  return { markdown: source.text.trim() === "" ? " " : source.text };
}
