import type { Message } from "../model/message.js";

/** Options of `adapter.stream` (upstream's `StreamOptions`); adapters ignore what they lack. */
export interface StreamOptions {
  /** Slack: the workspace the stream goes to. */
  recipientTeamId?: string;
  /** Slack: the user the stream answers (assistant threads). */
  recipientUserId?: string;
  /** Slack: blocks attached when the stream stops (`StreamMessage`'s `endWith`). */
  stopBlocks?: unknown[];
  /** Slack: task updates as one plan block or inline cards (`StreamMessage`'s `groupTasks`). */
  taskDisplayMode?: "plan" | "timeline";
  /** The least time between two edits in the post + edit fallback. */
  updateIntervalMs?: number;
  /**
   * The Chat's `fallbackStreamingPlaceholderText`, present only when the Chat configured it
   * (`null`: configured to show none). Teams shows it as an informative update before the first
   * text; adapters without such a status ignore it.
   */
  fallbackStreamingPlaceholderText?: string | null;
}

/**
 * A message only one user sees (upstream's `EphemeralMessage`). `usedFallback` is true when the
 * platform has no ephemeral messages and it was sent to the user's DM instead (`fallbackToDM`).
 */
export interface EphemeralMessage {
  id: string;
  /** The thread it was posted in: the original thread, or the DM when `usedFallback`. */
  threadId: string;
  usedFallback: boolean;
  raw?: unknown;
}

/** Options of `thread.schedule` and `adapter.scheduleMessage`. */
export interface ScheduleOptions {
  /** When the platform posts the message; must lie in the future. */
  postAt: Date;
}

/**
 * A post the platform will make later (upstream's `ScheduledMessage`). `cancel()` withdraws it;
 * it rejects when the platform already posted it.
 */
export interface ScheduledMessage {
  /** The platform's id of the scheduled post (not a message id: there is no message yet). */
  scheduledMessageId: string;
  /** The platform's channel id the post goes to. */
  channelId: string;
  postAt: Date;
  raw?: unknown;
  cancel(): Promise<void>;
}

/** Who may see a channel, where the platform says (upstream's `ChannelVisibility`). */
export type ChannelVisibility = "public" | "private" | "external" | "unknown";

/** A channel's metadata (upstream's `ChannelInfo`). */
export interface ChannelInfo {
  id: string;
  name?: string;
  isDM?: boolean;
  memberCount?: number;
  channelVisibility?: ChannelVisibility;
  /** Platform-specific fields. */
  metadata: Record<string, unknown>;
}

/** A thread's metadata (upstream's `ThreadInfo`). */
export interface ThreadInfo {
  id: string;
  channelId: string;
  channelName?: string;
  isDM?: boolean;
  channelVisibility?: ChannelVisibility;
  metadata: Record<string, unknown>;
}

/** Options of `adapter.listThreads`. */
export interface ListThreadsOptions {
  /** Page size; adapters cap it at the platform's limit. */
  limit?: number;
  /** Continue after this cursor from a previous page. */
  cursor?: string;
}

/** One thread of a channel, as `listThreads` lists it (upstream's `ThreadSummary`). */
export interface ThreadSummary {
  /** The thread id, `{adapter}:{…}`. */
  id: string;
  /** The message that started the thread. */
  rootMessage: Message;
  replyCount?: number;
  lastReplyAt?: Date;
}

/** One page of a channel's threads; `nextCursor` is absent on the last page. */
export interface ListThreadsResult {
  threads: ThreadSummary[];
  nextCursor?: string;
}

/** A platform user, as `adapter.getUser` finds them (upstream's `UserInfo`). */
export interface UserInfo {
  userId: string;
  userName: string;
  fullName?: string;
  email?: string;
  avatarUrl?: string;
  isBot?: boolean;
}
