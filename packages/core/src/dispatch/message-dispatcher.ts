import type { LocalHolders } from "../concurrency/local-holders.js";
import type { Strategy } from "../concurrency/strategy.js";
import type { Adapter, DeliveryResult, LockScope } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import { AdmissionRejectedError, ValidationError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import { lockKeyFor } from "../thread-id/index.js";
import type { DeliveryRegistry } from "./delivery-registry.js";

/** Chooses the lock scope of a message: the user's option, else the adapter's, else thread. */
export type LockScopeResolver = (context: {
  adapter: Adapter;
  threadId: string;
  channelId: string;
  isDM: boolean;
}) => LockScope | Promise<LockScope>;

/** What the message pipeline needs. */
export interface MessageDispatcherOptions {
  readonly state: StateAdapter;
  readonly logger: Logger;
  readonly registry: DeliveryRegistry;
  readonly holders: LocalHolders;
  readonly dedupeTtlMs: number;
  readonly lockScope: LockScopeResolver | LockScope | undefined;
  /** The strategy in force; read per delivery so it can be swapped while idle. */
  strategy(): Strategy;
  /** True once shutdown began: new deliveries are refused before anything is written. */
  isClosed(): boolean;
}

/** The State key of a delivery's dedupe mark. */
export function dedupeKey(deliveryKey: string): string {
  return `dedupe:${deliveryKey}`;
}

/**
 * The message pipeline of DESIGN §5, top to bottom: admit → self-filter → accept (atomic dedupe)
 * → lock key → strategy, which routes and runs handlers under the lock. Resolves with the
 * delivery's disposition. A dedupe mark is written only for an accepted delivery and removed
 * again when the State fails before a handler ran, so the platform's retry is processed.
 */
export class MessageDispatcher {
  constructor(private readonly options: MessageDispatcherOptions) {}

  async process(
    adapter: Adapter,
    threadId: string,
    input: Message | (() => Promise<Message>),
  ): Promise<DeliveryResult> {
    const { registry } = this.options;
    this.admit(adapter);
    const message = typeof input === "function" ? await input() : input;
    assertMessage(message, threadId);
    const span = registry.startSpan(adapter.name);
    if (message.author.isMe) {
      registry.endSpan(span, "ignored", "self message");
      return { outcome: "ignored", reason: "self message" };
    }
    const key = `${adapter.name}:${message.id}`;
    let accepted: boolean;
    try {
      accepted = await this.options.state.setIfNotExists(
        dedupeKey(key),
        1,
        this.options.dedupeTtlMs,
      );
    } catch (error) {
      this.options.logger.error("accept message failed: the State is unreachable", { key, error });
      registry.endSpan(span, "error", "state unavailable");
      throw error;
    }
    if (!accepted) {
      this.options.logger.debug("duplicate message skipped", { key });
      registry.endSpan(span, "duplicate", "already accepted");
      return { outcome: "duplicate", reason: "already accepted" };
    }
    let lockKey: string;
    try {
      lockKey = await this.lockKeyOf(adapter, threadId);
    } catch (error) {
      await this.forget(key);
      registry.endSpan(span, "error", "lock scope failed");
      throw error;
    }
    const result = registry.track(key, lockKey, span);
    await this.submit({ key, adapter, threadId, lockKey, message });
    return result;
  }

  private async submit(delivery: Parameters<Strategy["submit"]>[0]): Promise<void> {
    const { registry, holders, logger } = this.options;
    try {
      await this.options.strategy().submit(delivery);
    } catch (error) {
      logger.error("dispatch failed before the handler ran; the retry will be processed", {
        key: delivery.key,
        error,
      });
      await this.forget(delivery.key);
      registry.settle(delivery.key, "error", "state failed before the handler");
      return;
    }
    // Guard against waiting forever: a delivery not settled by now waits for a local holder's
    // drain; with no local holder its entry is in the shared queue for another instance.
    if (!registry.isSettled(delivery.key) && !holders.has(delivery.lockKey)) {
      registry.settle(delivery.key, "queued", "held by another instance");
    }
  }

  private admit(adapter: Adapter): void {
    if (this.options.isClosed()) {
      throw new AdmissionRejectedError("shutdown", 5_000, "the bot is shutting down", {
        step: `admit ${adapter.name} message`,
      });
    }
  }

  private async lockKeyOf(adapter: Adapter, threadId: string): Promise<string> {
    const channelId = adapter.channelIdFromThreadId(threadId);
    const option = this.options.lockScope;
    const scope =
      typeof option === "function"
        ? await option({ adapter, threadId, channelId, isDM: adapter.isDM?.(threadId) ?? false })
        : (option ?? adapter.lockScope ?? "thread");
    if (scope !== "thread" && scope !== "channel") {
      throw new ValidationError(`lockScope resolver returned ${JSON.stringify(scope)}`, {
        step: "resolve lock scope",
      });
    }
    return lockKeyFor(scope, threadId, channelId);
  }

  private forget(key: string): Promise<void> {
    return forgetDedupeMark(this.options.state, this.options.logger, key);
  }
}

/** Removes a delivery's dedupe mark; best effort, since the State may be what failed. */
export async function forgetDedupeMark(
  state: StateAdapter,
  logger: Logger,
  deliveryKey: string,
): Promise<void> {
  try {
    await state.delete(dedupeKey(deliveryKey));
  } catch (error) {
    logger.warn("could not remove the dedupe mark; a retry may be skipped", { deliveryKey, error });
  }
}

function assertMessage(message: Message, threadId: string): void {
  const problems: string[] = [];
  if (typeof threadId !== "string" || threadId.length === 0) problems.push("threadId is empty");
  if (typeof message?.id !== "string" || message.id.length === 0)
    problems.push("message.id is empty");
  if (typeof message?.text !== "string") problems.push("message.text is not a string");
  if (typeof message?.author !== "object" || message.author === null) {
    problems.push("message.author is missing");
  }
  if (problems.length > 0) {
    throw new ValidationError(problems.join("; "), { step: "validate incoming message" });
  }
}
