import { createStrategy } from "../concurrency/create-strategy.js";
import { passHolderThrough } from "../concurrency/holder-pass.js";
import { LocalHolders } from "../concurrency/local-holders.js";
import type { Batch, BatchRun, Strategy, StrategyContext } from "../concurrency/strategy.js";
import { Sweeper } from "../concurrency/sweeper.js";
import type { Adapter } from "../contracts/adapter.js";
import type { TurnGate } from "../coordination/turn-gate.js";
import { DeliveryRegistry } from "../dispatch/delivery-registry.js";
import type { HandlerRegistry } from "../dispatch/handler-registry.js";
import { forgetDedupeMark } from "../dispatch/message-dispatcher.js";
import { createBatchRunner, type ThreadHints } from "../dispatch/run-batch.js";
import type { ResolvedChatConfig } from "./chat-config.js";
import type { RunTag } from "./chat-coordination.js";

/** The concurrency machinery of one `Chat`, wired to its config and handlers. */
export interface StrategyWiring {
  readonly strategy: Strategy;
  readonly holders: LocalHolders;
  readonly deliveries: DeliveryRegistry;
  readonly sweeper: Sweeper;
}

/**
 * Builds the strategy, its context, the delivery registry and the sweeper for a config. Every
 * handler run is a turn of its installation on `gate` (DESIGN §7.2), tagged with the run's lock
 * so `thread.hold` inside the handler can take that lock over.
 */
export function wireStrategy<TThread, TChannel>(
  config: ResolvedChatConfig,
  registry: HandlerRegistry<TThread, TChannel>,
  shutdownSignal: AbortSignal,
  threadFor: (adapter: Adapter, threadId: string, hints?: ThreadHints) => TThread,
  gate: TurnGate<RunTag>,
  sweepHolds?: () => Promise<void>,
): StrategyWiring {
  const logger = config.logger;
  const settings = config.concurrency;
  const deliveries = new DeliveryRegistry(
    config.observer,
    logger,
    { strategy: settings.strategy },
    () => config.clock.now(),
  );
  const holders = new LocalHolders();
  const keyOf = (batch: Batch) => `${batch.adapter.name}:${batch.message.id}`;
  const routedRun = createBatchRunner({
    state: config.state,
    registry,
    logger,
    threadFor,
    botFor: (adapter) => {
      const bot = { userName: adapter.userName || config.userName };
      return adapter.botUserId ? { ...bot, botUserId: adapter.botUserId } : bot;
    },
    onRoute: (batch, route) => deliveries.noteRoute(keyOf(batch), route),
  });
  // The handler's signal also follows its own delivery's bound (detach timeout), when local.
  const runBatch: StrategyContext["runBatch"] = async (batch, run) => {
    const bound = deliveries.signalOf(keyOf(batch));
    const handlerRun = bound ? boundedRun(run, bound) : run;
    // Without an observer, no event, timestamp or duration is built for nobody (hot path).
    const timed = deliveries.recordsDurations;
    const startedAtMs = timed ? config.clock.now() : 0;
    const runEvent = deliveries.observesEvents
      ? {
          deliveryKey: keyOf(batch),
          lockKey: batch.lockKey,
          threadId: batch.threadId,
          skippedKeys: batch.skipped.map((message) => `${batch.adapter.name}:${message.id}`),
        }
      : undefined;
    const installation = { adapter: batch.adapter.name, tenant: batch.tenant };
    if (runEvent) deliveries.emit({ kind: "run-started", ...runEvent });
    try {
      // The run is the turn's tag (its lock key and hand-over, for `thread.hold`), and the
      // thread the turn's active conversation; the signal is read only if the turn must wait.
      return await gate.runTurn(installation, () => routedRun(batch, handlerRun), {
        signal: () => handlerRun.signal,
        tag: run,
        conversationId: batch.threadId,
      });
    } catch (error) {
      // Only waiting at a closed gate rejects (routedRun never does): the run was stopped from
      // outside before any handler started — lease lost, shutdown or detach timeout.
      logger.warn("handler run abandoned while waiting at the turn gate", {
        threadId: batch.threadId,
        error,
      });
      return "error";
    } finally {
      if (runEvent) deliveries.emit({ kind: "run-finished", ...runEvent });
      if (timed) {
        deliveries.recordDurationMs("baton.handler.duration", config.clock.now() - startedAtMs, {});
      }
    }
  };
  const context: StrategyContext = {
    state: config.state,
    clock: config.clock,
    logger,
    settings,
    shutdownSignal,
    stateRetry: config.stateRetry ?? undefined,
    runBatch,
    settle: (key, disposition, reason) => deliveries.settle(key, disposition, reason),
    unaccept: (key) => forgetDedupeMark(config.state, logger, key),
    handOff: (lockKey) => deliveries.handOff(lockKey),
    adapterNamed: (name) => config.adapters[name],
    recordDurationMs: (name, durationMs) => deliveries.recordDurationMs(name, durationMs, {}),
    onQueued: (delivery) =>
      deliveries.emit({
        kind: "queued",
        deliveryKey: delivery.key,
        lockKey: delivery.lockKey,
        threadId: delivery.threadId,
      }),
    onLockConflict: async (delivery) => {
      const callback = config.onLockConflict;
      if (typeof callback !== "function") return;
      try {
        const decision = await callback(delivery.threadId, delivery.message);
        if (decision !== "drop") {
          logger.warn(
            `onLockConflict returned ${JSON.stringify(decision)}; the message is dropped`,
          );
        }
      } catch (error) {
        logger.error("onLockConflict callback failed; the message is dropped", { error });
      }
    },
  };
  const strategy = passHolderThrough(context, createStrategy(context, holders));
  const sweeper = new Sweeper(context, strategy, holders, sweepHolds);
  return { strategy, holders, deliveries, sweeper };
}

/**
 * `run` with a signal that also aborts when `bound` does (the delivery's detach timeout). The
 * combined signal is made on first read, like the run's own.
 */
function boundedRun(run: BatchRun, bound: AbortSignal): BatchRun {
  let signal: AbortSignal | undefined;
  return {
    get signal() {
      signal ??= AbortSignal.any([run.signal, bound]);
      return signal;
    },
    ...(run.fence === undefined ? {} : { fence: run.fence }),
    ...(run.lockKey === undefined ? {} : { lockKey: run.lockKey }),
    ...(run.adopt === undefined ? {} : { adopt: run.adopt }),
  };
}
