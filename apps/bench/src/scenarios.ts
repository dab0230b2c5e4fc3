import { performance } from "node:perf_hooks";
import type { BenchBot, BenchMessage, BenchStrategy } from "./bench-bot.js";
import type { HandlerProbe } from "./handler-probe.js";
import type { RoundTripSnapshot } from "./round-trips.js";
import { quantile, runWithConcurrency } from "./stats.js";

/** The scenarios, in the order the bench runs and prints them. */
export const SCENARIO_NAMES = [
  "serial-drop",
  "serial-queue",
  "parallel-drop",
  "contended-queue",
] as const;

/** One of {@link SCENARIO_NAMES}. */
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** The shape of one scenario. */
export interface ScenarioSpec {
  readonly name: ScenarioName;
  /** One line for the report. */
  readonly description: string;
  readonly strategy: BenchStrategy;
  /** Messages per thread: 1 is uncontended. */
  readonly perThread: number;
  /** Threads in flight at once. */
  readonly threadsInFlight: number;
}

/** Messages per thread in the contended scenario. */
export const CONTENDED_PER_THREAD = 5;

/** The scenario specs by name. */
export const SCENARIOS: Readonly<Record<ScenarioName, ScenarioSpec>> = {
  "serial-drop": {
    name: "serial-drop",
    description: "uncontended, one message at a time, each in its own thread; strategy drop",
    strategy: "drop",
    perThread: 1,
    threadsInFlight: 1,
  },
  "serial-queue": {
    name: "serial-queue",
    description: "uncontended, one message at a time, each in its own thread; strategy queue",
    strategy: "queue",
    perThread: 1,
    threadsInFlight: 1,
  },
  "parallel-drop": {
    name: "parallel-drop",
    description: "uncontended, 16 messages in flight, each in its own thread; strategy drop",
    strategy: "drop",
    perThread: 1,
    threadsInFlight: 16,
  },
  "contended-queue": {
    name: "contended-queue",
    description: `contended: ${CONTENDED_PER_THREAD} messages per thread, 4 threads in flight; strategy queue`,
    strategy: "queue",
    perThread: CONTENDED_PER_THREAD,
    threadsInFlight: 4,
  },
};

/** How long the contended scenario holds a thread's first run waiting for its contenders. */
const CONTENDER_WAIT_MS = 5_000;

/** How long to wait for queued messages still unanswered when the deliveries resolved. */
const ANSWER_GRACE_MS = 2_000;

/** What one measured run of a scenario produced. */
export interface ScenarioMeasurement {
  readonly messages: number;
  readonly wallMs: number;
  readonly messagesPerSecond: number;
  readonly roundTrips: RoundTripSnapshot;
  readonly stateCalls: Readonly<Record<string, number>>;
  readonly stateCallCount: number;
  /** Per-delivery latency, for the uncontended scenarios (a contender's is a wait, not a cost). */
  readonly latencyMs: { readonly p50: number; readonly p95: number } | undefined;
  readonly handlerRuns: number;
  /** Deliveries whose processMessage rejected, or reported an error or a drop. */
  readonly failures: number;
  /** Messages no handler run answered, even after a grace period: lost or stranded. */
  readonly unanswered: number;
  /** Messages answered by more than one run. */
  readonly answeredTwice: number;
  /** Threads whose first run stopped waiting for its contenders (batches then differ). */
  readonly contenderWaitTimeouts: number;
  readonly connectionsOpened: number | undefined;
}

/** Where message ids and thread ids of one run come from, so no two runs share one. */
export interface MessageSource {
  /** `count` threads of `perThread` messages each, with ids unique in the process. */
  threads(count: number, perThread: number): BenchMessage[][];
}

/** A {@link MessageSource} numbering threads and messages under `runId`. */
export function messageSource(runId: string, channel = "C1"): MessageSource {
  let threadCount = 0;
  let messageCount = 0;
  return {
    threads(count, perThread) {
      return Array.from({ length: count }, () => {
        threadCount += 1;
        const threadId = `bench:${channel}:${runId}-t${String(threadCount).padStart(6, "0")}`;
        return Array.from({ length: perThread }, () => {
          messageCount += 1;
          return { id: `${runId}-m${messageCount}`, threadId, text: `@bot hello ${messageCount}` };
        });
      });
    },
  };
}

/**
 * Runs `spec` once on `bot`: a warm-up of `warmupMessages`, and at least one full wave of the
 * scenario (connections opened, scripts cached, JIT warm; not measured), then `messages` measured ones (rounded up to whole threads). Counters
 * are reset between the two, and read after the last delivery resolved and stray work settled.
 */
export async function runScenario(
  bot: BenchBot,
  probe: HandlerProbe,
  spec: ScenarioSpec,
  source: MessageSource,
  sizes: { readonly messages: number; readonly warmupMessages: number },
): Promise<ScenarioMeasurement> {
  const threadCount = (n: number) => Math.max(1, Math.ceil(n / spec.perThread));
  if (sizes.warmupMessages > 0) {
    // At least one full wave, so the pool has opened every connection the measurement will use.
    const warmup = Math.max(sizes.warmupMessages, spec.threadsInFlight * spec.perThread);
    await drive(bot, probe, spec, source.threads(threadCount(warmup), spec.perThread));
  }
  // Platform messages are built before the window: parsing is the adapter's work, not dispatch.
  const threads = source
    .threads(threadCount(sizes.messages), spec.perThread)
    .map((thread) => thread.map((message) => bot.prepare(message)));
  const ids = threads.flat().map((message) => message.id);

  probe.reset();
  bot.roundTrips.reset();
  bot.observed.reset();
  const started = performance.now();
  const driven = await drive(bot, probe, spec, threads);
  const wallMs = performance.now() - started;
  // Answers still in flight (a queued message drained by a holder that has not finished)
  // belong to this run; wait for them, but do not count the wait as throughput.
  const deadline = performance.now() + ANSWER_GRACE_MS;
  while (probe.unanswered(ids) > 0 && performance.now() < deadline) await pause(10);
  await pause(20);

  const roundTrips = bot.roundTrips.snapshot();
  return {
    messages: ids.length,
    wallMs,
    messagesPerSecond: (ids.length / wallMs) * 1000,
    roundTrips,
    stateCalls: bot.observed.calls(),
    stateCallCount: bot.observed.totalCalls(),
    latencyMs:
      spec.perThread === 1
        ? {
            p50: quantile(driven.latenciesMs, 0.5) ?? 0,
            p95: quantile(driven.latenciesMs, 0.95) ?? 0,
          }
        : undefined,
    handlerRuns: probe.handlerRuns,
    failures: driven.failures,
    unanswered: probe.unanswered(ids),
    answeredTwice: probe.answeredTwice,
    contenderWaitTimeouts: driven.waitTimeouts,
    connectionsOpened: bot.connectionsOpened(),
  };
}

interface Driven {
  latenciesMs: number[];
  failures: number;
  waitTimeouts: number;
}

async function drive(
  bot: BenchBot,
  probe: HandlerProbe,
  spec: ScenarioSpec,
  threads: BenchMessage[][],
): Promise<Driven> {
  const driven: Driven = { latenciesMs: [], failures: 0, waitTimeouts: 0 };
  const send = async (message: BenchMessage) => {
    const started = performance.now();
    const outcome = await bot.deliver(message);
    driven.latenciesMs.push(performance.now() - started);
    if (outcome === "failed") driven.failures += 1;
  };
  await runWithConcurrency(threads, spec.threadsInFlight, async (thread) => {
    const [first, ...contenders] = thread;
    if (!first) return;
    if (contenders.length === 0) {
      await send(first);
      return;
    }
    // Contended: the first message takes the lock and its run waits until every contender is in
    // the queue, so each thread splits the same way (one run, then one run answering the rest)
    // on every implementation and every run, and the round-trip counts are comparable.
    const lockKey = bot.lockKeyOf(first.threadId);
    probe.holdNextRun(first.threadId, async () => {
      const complete = await bot.observed.enqueued(lockKey, contenders.length, CONTENDER_WAIT_MS);
      if (!complete) driven.waitTimeouts += 1;
    });
    const running = probe.runStarted(first.threadId);
    const holder = send(first);
    // If the first message fails before its handler, the contenders still go (uncontended).
    await Promise.race([running, holder]);
    await Promise.all([holder, ...contenders.map(send)]);
  });
  return driven;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
