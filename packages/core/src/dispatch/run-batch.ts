import type { Batch, BatchOutcome, TurnAttempt } from "../concurrency/strategy.js";
import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import type { MessageContext } from "../model/context.js";
import type { Message } from "../model/message.js";
import { setMessageAdapter } from "../model/message-subject.js";
import {
  type BotIdentity,
  isMentionForHandlers,
  type Route,
  resolveIsMention,
  selectRoute,
} from "../routing/index.js";
import { runInConversation } from "./active-conversation.js";
import type { HandlerRegistry, MessageHandler } from "./handler-registry.js";

/** What the dispatcher already knows about a thread when it builds the handle. */
export interface ThreadHints {
  /** The message being handled; the thread's recent messages start with it. */
  initialMessage?: Message;
  /** True on the subscribed route: the thread is known to be followed. */
  isSubscribed?: boolean;
  /** The adapter's `isDM` answer for the thread, already asked while routing. */
  isDM?: boolean;
  /**
   * The run's `context.signal`, so a stream the handler posts stops when the run must; a
   * function, called only when a stream needs it (the signal is made on first read).
   */
  signal?: () => AbortSignal;
}

/** What the batch runner needs; the thread factory comes from the runtime layer. */
export interface BatchRunnerOptions<TThread, TChannel> {
  readonly state: StateAdapter;
  readonly registry: HandlerRegistry<TThread, TChannel>;
  readonly logger: Logger;
  /** The bot's identity on `adapter`, for mention detection. */
  botFor(adapter: Adapter): BotIdentity;
  /** A thread handle; `hints` let it answer without State calls (upstream's shortcuts). */
  threadFor(adapter: Adapter, threadId: string, hints?: ThreadHints): TThread;
  /** Told which route a batch took, for observability. */
  onRoute?(batch: Batch, route: Route["kind"]): void;
}

/**
 * Routes one batch at dispatch time (under its lock, so a subscription made by the previous
 * handler counts) and runs the chosen handlers in registration order. A handler error is logged
 * and the remaining handlers still run; the batch then counts as `error`. Never rejects.
 */
export function createBatchRunner<TThread, TChannel>(
  options: BatchRunnerOptions<TThread, TChannel>,
): (batch: Batch, run: HandlerRun) => Promise<BatchOutcome> {
  const { logger } = options;
  const routeFailed = (batch: Batch, error: unknown): BatchOutcome => {
    logger.error("route message failed before any handler ran", {
      threadId: batch.threadId,
      error,
    });
    return "not-run";
  };
  const runChosen = (batch: Batch, run: HandlerRun, isSubscribed: boolean) => {
    let chosen: Chosen<TThread>;
    try {
      chosen = chooseHandlers(options, batch, isSubscribed);
    } catch (error) {
      return Promise.resolve(routeFailed(batch, error));
    }
    return runHandlers(options, batch, run, chosen);
  };
  // Not an async function: the subscription read under this run's lock by the fused accept
  // (when it was) needs no State call, and the batch then costs no promise of its own.
  return (batch, run) => {
    if (batch.subscribed !== undefined) return runChosen(batch, run, batch.subscribed);
    return options.state.isSubscribed(batch.threadId).then(
      (isSubscribed) => runChosen(batch, run, isSubscribed),
      (error: unknown) => routeFailed(batch, error),
    );
  };
}

/**
 * Runs the `onTurnAbandoned` handlers for one thread's batch of an abandoned turn, as message
 * handlers run: same thread handle, same context (its `attempt` past `maxAttempts`). Never
 * rejects: a handler's error is logged.
 */
export function createAbandonRunner<TThread, TChannel>(
  options: BatchRunnerOptions<TThread, TChannel>,
): (batch: Batch, run: HandlerRun) => Promise<void> {
  return async (batch, run) => {
    const handlers = options.registry.turnAbandoned;
    if (handlers.length === 0) return;
    const isDM = batch.adapter.isDM?.(batch.threadId) ?? false;
    await runHandlers(options, batch, run, { handlers, route: "none", isDM });
  };
}

/** What a batch's handlers are given of their run: its signal (read lazily) and fence. */
type HandlerRun = {
  readonly signal: AbortSignal;
  readonly fence?: number;
  readonly turn?: TurnAttempt | undefined;
};

/** Runs the chosen handlers one after another; a handler's error is logged, never thrown. */
function runHandlers<TThread, TChannel>(
  options: BatchRunnerOptions<TThread, TChannel>,
  batch: Batch,
  run: HandlerRun,
  chosen: Chosen<TThread>,
): Promise<BatchOutcome> {
  const { handlers, route, isDM } = chosen;
  if (handlers.length === 0) return Promise.resolve("ignored");
  // `message.subject` loads through the message's adapter, queued and skipped messages too.
  setMessageAdapter(batch.message, batch.adapter);
  for (const message of batch.skipped) setMessageAdapter(message, batch.adapter);
  const thread = options.threadFor(batch.adapter, batch.threadId, {
    initialMessage: batch.message,
    isSubscribed: route === "subscribed",
    isDM,
    signal: () => run.signal,
  });
  const context = messageContext(batch, run);
  const failed = (error: unknown) => {
    options.logger.error("handler failed", {
      threadId: batch.threadId,
      messageId: batch.message.id,
      error,
    });
  };
  // The handler's conversation follows its async context, so tools it calls stay in it.
  const call = (handler: MessageHandler<TThread>): Promise<unknown> => {
    try {
      return Promise.resolve(
        runInConversation(batch.threadId, () => handler(thread, batch.message, context)),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const [only] = handlers;
  if (handlers.length === 1 && only) {
    return call(only).then(
      (): BatchOutcome => "handled",
      (error: unknown): BatchOutcome => {
        failed(error);
        return "error";
      },
    );
  }
  return (async () => {
    let anyFailed = false;
    for (const handler of handlers) {
      try {
        await call(handler);
      } catch (error) {
        anyFailed = true;
        failed(error);
      }
    }
    return anyFailed ? "error" : "handled";
  })();
}

/** The handlers a batch runs, the route that chose them, and the thread's DM answer. */
interface Chosen<TThread> {
  readonly handlers: readonly MessageHandler<TThread>[];
  readonly route: Route["kind"];
  readonly isDM: boolean;
}

function chooseHandlers<TThread, TChannel>(
  options: BatchRunnerOptions<TThread, TChannel>,
  batch: Batch,
  isSubscribed: boolean,
): Chosen<TThread> {
  const { registry } = options;
  const bot = options.botFor(batch.adapter);
  const isDM = batch.adapter.isDM?.(batch.threadId) ?? false;
  batch.message.isMention = resolveIsMention(batch.message, bot);
  for (const skipped of batch.skipped) skipped.isMention = resolveIsMention(skipped, bot);
  const routeHandlers = {
    directMessage: registry.directMessage.length,
    subscribed: registry.subscribed.length,
    mention: registry.mention.length,
    patterns: registry.patterns.map((entry) => entry.pattern),
  };
  const route = selectRoute({
    isDM,
    isSubscribed,
    isMention: batch.message.isMention,
    skippedMention: batch.skipped.some((message) => message.isMention === true),
    text: batch.message.text,
    handlers: routeHandlers,
  });
  batch.message.isMention = isMentionForHandlers({
    isDM,
    isMention: batch.message.isMention,
    handlers: routeHandlers,
  });
  options.onRoute?.(batch, route.kind);
  return { handlers: handlersFor(registry, route), route: route.kind, isDM };
}

function handlersFor<TThread, TChannel>(
  registry: HandlerRegistry<TThread, TChannel>,
  route: Route,
): readonly MessageHandler<TThread>[] {
  switch (route.kind) {
    case "direct-message":
      return registry.directMessage;
    case "subscribed":
      return registry.subscribed;
    case "mention":
      return registry.mention;
    case "patterns":
      return route.patternIndexes.flatMap((index) => registry.patterns[index]?.handler ?? []);
    case "none":
      return [];
  }
}

/**
 * The handler's `context`. Its `signal` is the run's, read on first use: most handlers never
 * look at it, and making an AbortSignal costs more than the rest of an uncontended dispatch.
 */
function messageContext(batch: Batch, run: HandlerRun) {
  let signal: AbortSignal | undefined;
  const turn = run.turn;
  const context: MessageContext = {
    skipped: [...batch.skipped],
    totalSinceLastHandler: batch.skipped.length + 1,
    attempt: turn?.attempt ?? 1,
    get signal() {
      signal ??= run.signal;
      return signal;
    },
    set signal(value) {
      signal = value;
    },
  };
  if (run.fence !== undefined) context.lock = { fence: run.fence };
  if (turn) context.interrupted = turn.interrupted;
  return context;
}
