import type { ModalResponse } from "../content/modals/index.js";
import type {
  AppContextChangedEvent,
  AppHomeOpenedEvent,
  AssistantContextChangedEvent,
  AssistantThreadStartedEvent,
  MemberJoinedChannelEvent,
} from "../model/assistant-events.js";
import type {
  ActionEvent,
  MessageDeletedEvent,
  ModalCloseEvent,
  ModalSubmitEvent,
  OptionsLoadEvent,
  ReactionEvent,
  SlashCommandEvent,
} from "../model/events.js";
import type { Message } from "../model/message.js";
import type { OptionsLoadResult } from "../model/options-load-result.js";
import type { Adapter } from "./adapter.js";
import type { Logger } from "./logger.js";
import type { DispatchOutcome } from "./observer.js";
import type { StateAdapter } from "./state.js";

// What the runtime offers an adapter (the Chat, seen from the adapter) and the options and
// results of its entry points. The Adapter contract itself is in adapter.ts.

/** Options passed to a webhook entry point. */
export interface WebhookOptions {
  /**
   * The host's hook to keep the process alive for detached work (serverless `waitUntil`). Receives
   * a promise that never rejects.
   */
  waitUntil?: (task: Promise<unknown>) => void;
}

/** Options of the runtime's message entry point. */
export interface ProcessOptions extends WebhookOptions {
  /** The installation the event belongs to (workspace, tenant), for per-tenant admission. */
  tenantId?: string;
}

/**
 * Options of the interactions the platform waits on for its answer (modal submits, options
 * loads). `deadlineMs`: the host resolves within that much time — without the handlers' answer
 * when they are slower — so the adapter can answer inside the platform's window (Slack: 3 s, so
 * pass about 2 500). Without it the host waits for the handlers.
 */
export interface InteractionOptions extends ProcessOptions {
  deadlineMs?: number;
}

/**
 * How a delivery ended, as `processMessage` reports it: a terminal {@link DispatchOutcome}, or
 * `queued` when the message waits in the State queue for a holder in another process.
 */
export interface DeliveryResult {
  readonly outcome: DispatchOutcome | "queued";
  /** A short fixed phrase saying why, e.g. "lock held"; never user content. */
  readonly reason?: string;
}

/**
 * When a webhook may answer, as `receiveMessage` reports it: `accepted` under deferred dispatch
 * (the handler runs detached), or the delivery's final result (sync dispatch, duplicates, self
 * messages).
 */
export interface ReceiveResult {
  readonly outcome: DeliveryResult["outcome"] | "accepted";
  readonly reason?: string;
}

/**
 * What the runtime offers an adapter. An adapter verifies, parses and normalizes, then hands
 * events here; it never locks, dedupes or routes itself.
 */
export interface ChatHost {
  /**
   * Dispatches an inbound message and resolves with its disposition once it is final (handled,
   * skipped, dropped, errored, expired, preempted, ignored, duplicate) — or `queued` when a
   * holder in another process will run it. A factory is called after admission, so a rejected
   * delivery costs no parsing. Rejects with `AdmissionRejectedError` at the admission bound.
   */
  processMessage(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options?: ProcessOptions,
  ): Promise<DeliveryResult>;
  /**
   * The entry point for webhook adapters: admits and accepts the message, then resolves when the
   * webhook may answer — after acceptance under `deferred` dispatch (the handler runs detached
   * and is handed to `options.waitUntil`), after the handler under `sync`. Rejects with
   * `AdmissionRejectedError` (answer 503 with Retry-After; nothing was written) or a State error
   * (answer 503 so the platform retries; no dedupe mark was left).
   */
  receiveMessage(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options?: ProcessOptions,
  ): Promise<ReceiveResult>;
  processAction(adapter: Adapter, event: ActionEvent, options?: ProcessOptions): Promise<void>;
  processReaction(adapter: Adapter, event: ReactionEvent, options?: ProcessOptions): Promise<void>;
  processSlashCommand(
    adapter: Adapter,
    event: SlashCommandEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  /** An edit; `previousMessage` is the message before it, when the platform sent that along. */
  processMessageUpdated(
    adapter: Adapter,
    message: Message,
    options?: ProcessOptions,
    previousMessage?: Message,
  ): Promise<void>;
  processMessageDeleted(
    adapter: Adapter,
    event: MessageDeletedEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  // Slack's assistant and app surface. Optional so hosts written before them still compile; an
  // adapter skips the event when its host lacks the entry point.
  processAssistantThreadStarted?(
    adapter: Adapter,
    event: AssistantThreadStartedEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  processAssistantContextChanged?(
    adapter: Adapter,
    event: AssistantContextChangedEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  processAppHomeOpened?(
    adapter: Adapter,
    event: AppHomeOpenedEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  processAppContextChanged?(
    adapter: Adapter,
    event: AppContextChangedEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  processMemberJoinedChannel?(
    adapter: Adapter,
    event: MemberJoinedChannelEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  // interactions: modals and dynamic selects
  /**
   * Runs the modal's submit handlers and resolves with the answer the adapter sends the platform
   * (validation errors, update, push, close), or `undefined` for "close the modal". `contextId`
   * is the id the adapter got in `openModal` and kept with the view; it brings back the thread,
   * message and channel the modal was opened from. A handler error is logged, never rejected.
   * Rejects with `AdmissionRejectedError` during shutdown.
   */
  processModalSubmit(
    adapter: Adapter,
    event: ModalSubmitEvent,
    contextId?: string,
    options?: InteractionOptions,
  ): Promise<ModalResponse | undefined>;
  /** Runs the modal's close handlers; resolves when they are done. Errors are logged. */
  processModalClose(
    adapter: Adapter,
    event: ModalCloseEvent,
    contextId?: string,
    options?: ProcessOptions,
  ): Promise<void>;
  /**
   * Resolves with the options of a dynamic select for the adapter to answer with, or `undefined`
   * when no handler answered (answer with an empty list).
   */
  processOptionsLoad(
    adapter: Adapter,
    event: OptionsLoadEvent,
    options?: InteractionOptions,
  ): Promise<OptionsLoadResult | undefined>;
  getState(): StateAdapter;
  getUserName(): string;
  getLogger(component: string): Logger;
}
