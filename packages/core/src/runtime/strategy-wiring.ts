import { createStrategy } from "../concurrency/create-strategy.js";
import { passHolderThrough } from "../concurrency/holder-pass.js";
import { LocalHolders } from "../concurrency/local-holders.js";
import type {
  Batch,
  BatchOutcome,
  BatchRun,
  Strategy,
  StrategyContext,
} from "../concurrency/strategy.js";
import { Sweeper } from "../concurrency/sweeper.js";
import type { Adapter } from "../contracts/adapter.js";
import type { TurnGate, TurnOptions } from "../coordination/turn-gate.js";
import { DeliveryRegistry } from "../dispatch/delivery-registry.js";
import type { HandlerRegistry } from "../dispatch/handler-registry.js";
import { forgetDedupeMark } from "../dispatch/message-dispatcher.js";
import { createAbandonRunner, createBatchRunner, type ThreadHints } from "../dispatch/run-batch.js";
import type { BotIdentity } from "../routing/index.js";
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
  const identities = new BotIdentities(config.userName);
  const keyOf = (batch: Batch) => `${batch.adapter.name}:${batch.message.id}`;
  const runnerOptions = {
    state: config.state,
    registry,
    logger,
    threadFor,
    botFor: (adapter: Adapter) => identities.of(adapter),
    onRoute: (batch: Batch, route: string) => deliveries.noteRoute(keyOf(batch), route),
  };
  const routedRun = createBatchRunner(runnerOptions);
  const abandonRun = createAbandonRunner(runnerOptions);
  // The handler's signal also follows its own delivery's bound (detach timeout), when local.
  const runBatch: StrategyContext["runBatch"] = (batch, run) => {
    const bound = deliveries.signalOf(keyOf(batch));
    const handlerRun = bound ? boundedRun(run, bound) : run;
    const installation = { adapter: batch.adapter.name, tenant: batch.tenant };
    // The run is the turn's tag (its lock key and hand-over, for `thread.hold`), and the thread
    // the turn's active conversation.
    const turn = { tag: run, conversationId: batch.threadId };
    const routed = () => routedRun(batch, handlerRun);
    const handle =
      batch.adapter.runForTenant === undefined ? routed : () => inTenant(batch, routed);
    // Without an observer and with the gate open (the hot path): the turn's own promise, which
    // never rejects (routedRun does not), and no event, timestamp or duration built for nobody.
    if (!deliveries.observesEvents && !deliveries.recordsDurations) {
      const now = gate.tryRunTurn(installation, handle, turn);
      if (now) return now;
    }
    return observedRun(
      batch,
      installation,
      handle,
      { ...turn, signal: () => handlerRun.signal },
      run.turn?.attempt ?? 1,
    );
  };
  // A run the adapter places in its tenant's context (a multi-workspace app's token). Like the
  // routed run, it never rejects: a failing hook ends the run before any handler.
  const inTenant = (batch: Batch, routed: () => Promise<BatchOutcome>): Promise<BatchOutcome> => {
    const failed = (error: unknown): BatchOutcome => {
      logger.error("the adapter could not place the run in its tenant; no handler ran", {
        adapter: batch.adapter.name,
        tenant: batch.tenant,
        threadId: batch.threadId,
        error,
      });
      return "error";
    };
    try {
      const placed = batch.adapter.runForTenant?.(batch.tenant, batch.message, routed);
      return placed === undefined ? routed() : placed.catch(failed);
    } catch (error) {
      return Promise.resolve(failed(error));
    }
  };
  const observedRun = async (
    batch: Batch,
    installation: { adapter: string; tenant: string | undefined },
    handle: () => Promise<BatchOutcome>,
    turn: TurnOptions<RunTag>,
    attempt: number,
  ): Promise<BatchOutcome> => {
    const timed = deliveries.recordsDurations;
    const startedAtMs = timed ? config.clock.now() : 0;
    const runEvent = deliveries.observesEvents
      ? {
          deliveryKey: keyOf(batch),
          lockKey: batch.lockKey,
          threadId: batch.threadId,
          skippedKeys: batch.skipped.map((message) => `${batch.adapter.name}:${message.id}`),
          attempt,
        }
      : undefined;
    if (runEvent) deliveries.emit({ kind: "run-started", ...runEvent });
    try {
      // The signal is read only if the turn must wait at a closed gate.
      return await gate.runTurn(installation, handle, turn);
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
    durableTurns: config.durableTurns ?? undefined,
    runBatch,
    abandonTurn: (batch, run) => {
      const placed = () => abandonRun(batch, run).then(() => "handled" as const);
      const inPlace =
        batch.adapter.runForTenant === undefined ? placed : () => inTenant(batch, placed);
      return inPlace().then(() => undefined);
    },
    settle: (key, disposition, reason) => deliveries.settle(key, disposition, reason),
    unaccept: (key) => forgetDedupeMark(config.state, logger, key),
    handOff: (lockKey) => deliveries.handOff(lockKey),
    settleWaiting: (lockKey, disposition, reason, waitingBefore) =>
      deliveries.settleWaiting(lockKey, disposition, reason, waitingBefore),
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
 * The bot's identity on each adapter (for mention detection), made again only when the adapter's
 * `userName` or `botUserId` changed (an adapter may learn its bot user id at initialization).
 */
class BotIdentities {
  private readonly known = new WeakMap<Adapter, BotIdentity>();

  constructor(private readonly fallbackUserName: string) {}

  of(adapter: Adapter): BotIdentity {
    const userName = adapter.userName || this.fallbackUserName;
    const { botUserId } = adapter;
    const known = this.known.get(adapter);
    if (known && known.userName === userName && known.botUserId === (botUserId || undefined)) {
      return known;
    }
    const identity: BotIdentity = botUserId ? { userName, botUserId } : { userName };
    this.known.set(adapter, identity);
    return identity;
  }
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
    ...(run.adopt === undefined ? {} : { adopt: () => run.adopt?.() ?? Promise.resolve(null) }),
    get turn() {
      return run.turn;
    },
  };
}
