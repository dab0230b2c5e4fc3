import type { Clock, Logger, RawMessage, StreamChunk, StreamOptions } from "@baton/core";
import type { SlackApi } from "./api.js";
import type { ResolvedSlackAssistantOptions } from "./assistant-options.js";
import { buildFeedbackButtonsBlock } from "./feedback-buttons.js";
import { streamNatively } from "./native-stream.js";

/** What {@link SlackNativeStreams} works with; the adapter passes its own. */
export interface SlackNativeStreamsOptions {
  readonly api: SlackApi;
  readonly clock: Clock;
  logger(): Logger;
  /** `nativeStreaming` and `feedbackButtons`, resolved. */
  readonly assistant: Pick<ResolvedSlackAssistantOptions, "nativeStreaming" | "feedbackButtons">;
  /** The least time between two appends when the stream sets none. */
  readonly appendIntervalMs: number;
  /** The workspace of the work in progress (the delivery's, else the bot token's). */
  team(): string;
  /** The adapter's outbound mention resolution (`SlackUserNames.resolveText`). */
  resolveText(text: string, threadId: string): Promise<string>;
}

/**
 * The adapter's native streams (`adapter.stream`, see `streamNatively`): applies the
 * `nativeStreaming` and `feedbackButtons` options, and remembers for the adapter's lifetime that
 * Slack refused native streaming for good.
 */
export class SlackNativeStreams {
  private off = false;

  constructor(private readonly options: SlackNativeStreamsOptions) {}

  /** Streams natively, or resolves `null` (before reading) so the core posts and edits. */
  stream(
    threadId: string,
    chunks: AsyncIterable<string | StreamChunk>,
    streamOptions: StreamOptions = {},
  ): Promise<RawMessage | null> {
    const { assistant } = this.options;
    const logger = this.options.logger();
    return streamNatively(
      {
        api: this.options.api,
        clock: this.options.clock,
        logger,
        teamId: this.options.team(),
        appendIntervalMs: streamOptions.updateIntervalMs ?? this.options.appendIntervalMs,
        enabled: assistant.nativeStreaming,
        nativeOff: () => this.off,
        turnNativeOff: () => {
          this.off = true;
        },
        closingBlocks:
          assistant.feedbackButtons === undefined
            ? []
            : [buildFeedbackButtonsBlock(assistant.feedbackButtons)],
        resolveMentions: async (text) => {
          try {
            return await this.options.resolveText(text, threadId);
          } catch (error) {
            // A name the index cannot answer stays plain text; the reply still goes out.
            logger.warn("slack: resolving mentions in a streamed reply failed", { error });
            return text;
          }
        },
      },
      threadId,
      chunks,
      streamOptions,
    );
  }
}
