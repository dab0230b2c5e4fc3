import { sleep } from "@baton/core";
import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
} from "@baton/testing";
import { LocalHolders } from "../../src/concurrency/local-holders.js";
import type {
  Batch,
  BatchOutcome,
  ConcurrencySettings,
  DeliveryDisposition,
  Strategy,
  StrategyContext,
} from "../../src/concurrency/strategy.js";
import { silentLogger } from "../../src/contracts/logger.js";
import { lockKeyFor } from "../../src/thread-id/index.js";

/** One handler run as the harness saw it. */
export interface RecordedRun {
  readonly threadId: string;
  readonly messageId: string;
  readonly skippedIds: readonly string[];
  readonly startedAt: number;
  endedAt?: number;
  readonly fence: number | undefined;
  readonly signal: AbortSignal;
}

/** What a handler run does: how long it takes (fake ms) and whether it throws. */
export interface RunBehaviour {
  durationMs?: number;
  fails?: boolean;
}

export const BASE_SETTINGS: ConcurrencySettings = {
  strategy: "queue",
  lockTtlMs: 30_000,
  debounceMs: 1_500,
  maxWaitMs: 15_000,
  maxQueueSize: 10,
  onQueueFull: "drop-oldest",
  queueEntryTtlMs: 90_000,
  maxConcurrent: Number.POSITIVE_INFINITY,
  maxLockLifetimeMs: 600_000,
  extendTimeoutMs: 10_000,
  sweepIntervalMs: 30_000,
};

/**
 * A strategy under test on the real memory state and a fake clock, with a handler stand-in that
 * records every run, its overlap with others on the same lock key, and every disposition.
 */
export async function createStrategyHarness(
  create: (context: StrategyContext, holders: LocalHolders) => Strategy,
  settings: Partial<ConcurrencySettings> = {},
) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock");
  const shutdown = new AbortController();
  const runs: RecordedRun[] = [];
  const dispositions = new Map<string, DeliveryDisposition[]>();
  const inFlightByLockKey = new Map<string, number>();
  let peakInFlight = 0;
  const behaviours = new Map<string, RunBehaviour>();
  let defaultBehaviour: RunBehaviour = {};
  const merged = { ...BASE_SETTINGS, ...settings };

  const lockKeyOfThread = (threadId: string, scope: "thread" | "channel") =>
    lockKeyFor(scope, threadId, adapter.channelIdFromThreadId(threadId));

  async function runBatch(batch: Batch, run: { signal: AbortSignal; fence?: number }) {
    const lockKey = lockKeyOfThread(batch.threadId, currentScope);
    const inFlight = (inFlightByLockKey.get(lockKey) ?? 0) + 1;
    inFlightByLockKey.set(lockKey, inFlight);
    peakInFlight = Math.max(peakInFlight, inFlight);
    const record: RecordedRun = {
      threadId: batch.threadId,
      messageId: batch.message.id,
      skippedIds: batch.skipped.map((message) => message.id),
      startedAt: clock.now(),
      fence: run.fence,
      signal: run.signal,
    };
    runs.push(record);
    const behaviour = behaviours.get(batch.message.text) ?? defaultBehaviour;
    try {
      if (behaviour.durationMs) await sleep(clock, behaviour.durationMs);
      return (behaviour.fails ? "error" : "handled") as BatchOutcome;
    } finally {
      record.endedAt = clock.now();
      inFlightByLockKey.set(lockKey, (inFlightByLockKey.get(lockKey) ?? 1) - 1);
    }
  }

  let currentScope: "thread" | "channel" = "thread";
  const holders = new LocalHolders();
  const context: StrategyContext = {
    state,
    clock,
    logger: silentLogger,
    settings: merged,
    shutdownSignal: shutdown.signal,
    runBatch,
    settle: (key, disposition) => {
      dispositions.set(key, [...(dispositions.get(key) ?? []), disposition]);
    },
    handOff: () => {},
    settleWaiting: () => {},
    unaccept: async () => {},
    adapterNamed: (name) => (name === adapter.name ? adapter : undefined),
  };
  const strategy = create(context, holders);

  return {
    clock,
    state,
    adapter,
    holders,
    strategy,
    runs,
    dispositions,
    shutdown,
    get peakInFlight() {
      return peakInFlight;
    },
    /** Makes runs of messages with this text take `durationMs` and/or fail. */
    behave(text: string, behaviour: RunBehaviour) {
      behaviours.set(text, behaviour);
    },
    behaveByDefault(behaviour: RunBehaviour) {
      defaultBehaviour = behaviour;
    },
    useScope(scope: "thread" | "channel") {
      currentScope = scope;
    },
    /** Submits a message; returns the submit promise (not awaited by the harness). */
    deliver(text: string, threadId = "mock:C1:T1", id?: string) {
      const message = createTestMessage({ text, threadId, ...(id ? { id } : {}) });
      const key = `${adapter.name}:${message.id}`;
      const submitted = strategy.submit({
        key,
        adapter,
        threadId,
        lockKey: lockKeyOfThread(threadId, currentScope),
        message,
      });
      return { key, id: message.id, submitted };
    },
    dispositionOf(key: string) {
      return dispositions.get(key);
    },
    lockKeyOfThread,
  };
}
