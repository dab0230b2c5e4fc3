import type { Tool } from "ai";
import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { ChannelInfo, UserInfo } from "../contracts/thread-surface-types.js";
import type { Author } from "../model/author.js";
import type { Channel } from "../runtime/channel.js";
import type { Thread } from "../runtime/thread.js";
import type { ScopeGuard } from "./read-scope.js";

/**
 * The `Chat` the tools act through (upstream's `ChatBinding`). Every call goes through the
 * runtime's own thread and channel handles, so input checks, capability checks and error
 * wrapping are the runtime's, not a second copy here. A `Chat` fits as it is.
 */
export interface ChatBinding {
  thread(threadId: string): Thread;
  channel(channelId: string): Channel;
  getAdapter(name: string): Adapter | undefined;
  getLogger(component: string): Logger;
  /** Opens (or finds) the direct conversation with `userId`. */
  openDM?(userId: string): Promise<Thread>;
  /** Looks a user up; `null` when the platform knows no such user. */
  getUser?(userId: string): Promise<UserInfo | null>;
}

/** A thread that can list who took part (`thread.getParticipants`). */
export interface ParticipantsThread {
  getParticipants?(): Promise<Author[]>;
}

/** A channel that can read its metadata (`channel.fetchMetadata`). */
export interface MetadataChannel {
  fetchMetadata?(): Promise<ChannelInfo>;
}

/** Options of the write tools (upstream's `ToolOptions`). */
export interface ToolOptions {
  /** Called with the target thread or channel id before the tool acts; throws when out of scope. */
  guard?: ScopeGuard;
  /** Whether the AI SDK asks the user to approve each call first. Default `true`. */
  needsApproval?: boolean;
}

/**
 * Per-tool overrides for presentation and approval (upstream's `ToolOverrides`). The fields that
 * define what a tool does — `execute`, `inputSchema`, `outputSchema`, and the provider-tool
 * fields — are left out, so an override can never change a tool's behaviour or its checks.
 */
export type ToolOverrides = Partial<
  Pick<
    Tool,
    | "description"
    | "inputExamples"
    | "metadata"
    | "needsApproval"
    | "onInputAvailable"
    | "onInputDelta"
    | "onInputStart"
    | "providerOptions"
    | "strict"
    | "title"
    | "toModelOutput"
  >
>;
