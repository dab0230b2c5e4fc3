import type { Tool } from "ai";
import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { UserInfo } from "../contracts/thread-surface-types.js";
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
  /** Opens (or finds) the direct conversation with `userId`; the adapter is found from the id. */
  openDM(userId: string): Promise<Thread>;
  /** Looks a user up (cached in the State); `null` when the platform knows no such user. */
  getUser(userId: string): Promise<UserInfo | null>;
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
