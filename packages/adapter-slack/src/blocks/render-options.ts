import { SlackBlockError } from "./errors.js";
import { SLACK_LIMITS } from "./limits.js";

/** One Block Kit block (Slack's JSON, loosely typed: Slack validates it). */
export type SlackBlock = Record<string, unknown>;

/** How a card is rendered to Block Kit. */
export interface SlackBlocksOptions {
  /** Writes the `{{emoji:name}}` placeholders of every text the card shows. */
  readonly convertEmoji?: (text: string) => string;
  /** At most this many blocks, 1 to 50 (default 50); past it the last block says so. */
  readonly maxBlocks?: number;
}

/**
 * What one rendering carries from block to block: Slack takes one table and two charts per
 * message, so the later ones fall back to text.
 */
export interface SlackRenderState {
  readonly convertEmoji: (text: string) => string;
  readonly maxBlocks: number;
  usedNativeTable: boolean;
  chartCount: number;
}

/** The state of a fresh rendering; throws a SlackBlockError for a `maxBlocks` Slack would refuse. */
export function createRenderState(
  options: SlackBlocksOptions,
  defaultConvertEmoji: (text: string) => string,
): SlackRenderState {
  const maxBlocks = options.maxBlocks ?? SLACK_LIMITS.blocks;
  if (!Number.isInteger(maxBlocks) || maxBlocks < 1 || maxBlocks > SLACK_LIMITS.blocks) {
    throw new SlackBlockError(
      `maxBlocks must be an integer from 1 to ${SLACK_LIMITS.blocks}, got ${String(maxBlocks)}`,
    );
  }
  return {
    convertEmoji: options.convertEmoji ?? defaultConvertEmoji,
    maxBlocks,
    usedNativeTable: false,
    chartCount: 0,
  };
}
