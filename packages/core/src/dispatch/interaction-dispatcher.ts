import {
  type ModalResponse,
  validateModalElement,
  validateModalResponse,
} from "../content/modals/index.js";
import type { Adapter, WebhookOptions } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { ModalCloseEvent, ModalSubmitEvent, OptionsLoadEvent } from "../model/events.js";
import type { OptionsLoadResult } from "../model/options-load-result.js";
import { matchesActionId } from "../routing/index.js";
import { runInConversation } from "./active-conversation.js";
import { postToCallbackUrl } from "./callback-post.js";
import type { HandlerRegistry, ModalOrigin } from "./handler-registry.js";
import type { ModalContextRecord, ModalContexts } from "./modal-context.js";
import { checkOptionsLoadResult } from "./options-load-check.js";

/** What the modal and options-load events need; the handles come from the runtime. */
export interface InteractionDispatcherOptions<TThread, TChannel, TMessage> {
  readonly registry: HandlerRegistry<TThread, TChannel, TMessage>;
  readonly logger: Logger;
  readonly contexts: ModalContexts;
  /** Keeps work that outlives the call (a callback POST) counted, so shutdown waits for it. */
  background(task: Promise<unknown>): void;
  /** The `fetch` used for callback URLs; the global one by default. */
  readonly fetch?: typeof fetch;
  threadFor(adapter: Adapter, threadId: string): TThread;
  channelFor(adapter: Adapter, channelId: string): TChannel;
  sentMessageFor(adapter: Adapter, threadId: string, messageId: string): TMessage;
}

/**
 * Dispatches the interactions whose answer goes back to the platform in the webhook's response:
 * modal submits (validation errors, update, push, close), modal closes and dynamic-select
 * options. Like the other events they take no lock and no dedupe. A handler that throws, or
 * answers something malformed, is logged and the next matching handler gets its turn.
 */
export class InteractionDispatcher<TThread, TChannel, TMessage> {
  constructor(
    private readonly options: InteractionDispatcherOptions<TThread, TChannel, TMessage>,
  ) {}

  /**
   * Runs the submit handlers registered for the modal's `callbackId` (and the catch-alls), in
   * registration order, until one answers; resolves with that answer. The modal's context is
   * forgotten unless the answer keeps the modal open. A modal opened with a `callbackUrl` has its
   * values POSTed there too — unless the answer shows validation errors — without delaying the
   * answer: the POST is handed to `options.waitUntil`.
   */
  async modalSubmit(
    adapter: Adapter,
    event: ModalSubmitEvent,
    contextId: string | undefined,
    options: WebhookOptions = {},
  ): Promise<ModalResponse | undefined> {
    const { contexts, logger, registry } = this.options;
    const record = await contexts.find(adapter.name, contextId);
    const origin = record ? this.handles(adapter, record) : {};
    const full = { ...event, ...origin, adapter };
    let answer: ModalResponse | undefined;
    for (const entry of registry.modalSubmit) {
      if (!matchesActionId(entry.filter, event.callbackId)) continue;
      try {
        const answered = await runInConversation(conversationOf(record), () => entry.handler(full));
        answer = checkedAnswer(answered);
      } catch (error) {
        logger.error("modal submit handler failed", { callbackId: event.callbackId, error });
      }
      if (answer) break;
    }
    if (!answer || answer.action === "close" || answer.action === "clear") {
      await contexts.forget(adapter.name, contextId);
    }
    if (record?.callbackUrl && answer?.action !== "errors") {
      this.postSubmit(record.callbackUrl, event, options);
    }
    return answer;
  }

  private postSubmit(callbackUrl: string, event: ModalSubmitEvent, options: WebhookOptions): void {
    const payload = {
      type: "modal_submit",
      callbackId: event.callbackId,
      viewId: event.viewId,
      values: event.values,
      user: { id: event.user.userId, name: event.user.userName },
    };
    const task = postToCallbackUrl(callbackUrl, payload, this.options.fetch).then(({ error }) => {
      if (error) {
        this.options.logger.error("modal callbackUrl POST failed", { callbackUrl, error });
      }
    });
    this.options.background(task);
    options.waitUntil?.(task);
  }

  /** Runs every close handler registered for the modal's `callbackId` (and the catch-alls). */
  async modalClose(
    adapter: Adapter,
    event: ModalCloseEvent,
    contextId: string | undefined,
  ): Promise<void> {
    const { contexts, logger, registry } = this.options;
    const record = await contexts.find(adapter.name, contextId);
    const origin = record ? this.handles(adapter, record) : {};
    const full = { ...event, ...origin, adapter };
    for (const entry of registry.modalClose) {
      if (!matchesActionId(entry.filter, event.callbackId)) continue;
      try {
        await runInConversation(conversationOf(record), () => entry.handler(full));
      } catch (error) {
        logger.error("modal close handler failed", { callbackId: event.callbackId, error });
      }
    }
    await contexts.forget(adapter.name, contextId);
  }

  /**
   * Asks the handlers registered for the select's `actionId` first, then the catch-alls (each
   * group in registration order), and resolves with the first answer; `undefined` when none
   * answers.
   */
  async optionsLoad(
    adapter: Adapter,
    event: OptionsLoadEvent,
  ): Promise<OptionsLoadResult | undefined> {
    const { logger, registry } = this.options;
    const specific = registry.optionsLoad.filter(
      (entry) => entry.filter !== undefined && entry.filter.length > 0,
    );
    const candidates = [
      ...specific.filter((entry) => matchesActionId(entry.filter, event.actionId)),
      ...registry.optionsLoad.filter((entry) => !specific.includes(entry)),
    ];
    const full = { ...event, adapter };
    for (const entry of candidates) {
      try {
        const answer = checkOptionsLoadResult(
          await entry.handler(full),
          `load options for ${event.actionId}`,
        );
        if (answer) return answer;
      } catch (error) {
        logger.error("options load handler failed", { actionId: event.actionId, error });
      }
    }
    return undefined;
  }

  private handles(
    adapter: Adapter,
    record: ModalContextRecord,
  ): ModalOrigin<TThread, TChannel, TMessage> {
    const origin: ModalOrigin<TThread, TChannel, TMessage> = {};
    try {
      if (record.threadId) {
        origin.relatedThread = this.options.threadFor(adapter, record.threadId);
        if (record.messageId) {
          origin.relatedMessage = this.options.sentMessageFor(
            adapter,
            record.threadId,
            record.messageId,
          );
        }
      }
      if (record.channelId) {
        origin.relatedChannel = this.options.channelFor(adapter, record.channelId);
      }
    } catch (error) {
      // A context written by an older deployment may name ids this adapter no longer decodes.
      this.options.logger.warn("a modal's stored context names ids this adapter refuses", {
        adapter: adapter.name,
        error,
      });
    }
    return origin;
  }
}

/**
 * The conversation a modal was opened from (its thread, else its channel), which its submit and
 * close handlers run in, so AI tools they create stay there; none for a modal opened outside one.
 */
/** The answer's shape checked, and a modal it opens checked like a built one. */
function checkedAnswer(answered: unknown): ModalResponse | undefined {
  const answer = validateModalResponse(answered ?? undefined);
  if (answer?.action === "update" || answer?.action === "push") {
    return { ...answer, modal: validateModalElement(answer.modal) };
  }
  return answer;
}

function conversationOf(record: ModalContextRecord | null | undefined): string | undefined {
  return record?.threadId || record?.channelId || undefined;
}
