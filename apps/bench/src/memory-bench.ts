import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Chat, lockKeyFor } from "@baton/core";
import { createMemoryState, type MemoryState } from "@baton/state-memory";
import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  type FakeClock,
} from "@baton/testing";
import { observeState } from "./observed-state.js";
import { runWithConcurrency } from "./stats.js";

/** What Baton keeps in memory, measured on the memory State after full garbage collections. */
export interface MemoryReport {
  /** Contenders parked at once behind one busy thread. */
  readonly parkedWaiters: number;
  /** Heap per parked waiter: its delivery, its promise and its queue entry. */
  readonly bytesPerParkedWaiter: number;
  /** Threads that each handled one message and went idle. */
  readonly idleThreads: number;
  /** Heap per idle thread while its message's dedupe mark lives (`dedupeTtlMs`, 10 min). */
  readonly bytesPerIdleThread: number;
  /** The same once the dedupe marks expired and were purged. */
  readonly bytesPerIdleThreadAfterTtl: number;
  /** Messages of the soak, and how many threads and in flight at once they came over. */
  readonly soakMessages: number;
  readonly soakThreads: number;
  readonly soakInFlight: number;
  /** Heap before the soak and after it (dedupe marks expired and purged), in bytes. */
  readonly soakBaselineBytes: number;
  readonly soakAfterBytes: number;
  /** Messages of the soak no handler answered (should be 0). */
  readonly soakUnanswered: number;
}

/** The sizes {@link measureMemory} runs with. */
export interface MemoryPlan {
  readonly parkedWaiters: number;
  readonly idleThreads: number;
  readonly soakMessages: number;
}

/** The soak: 100 000 messages. */
export const DEFAULT_MEMORY_PLAN: MemoryPlan = {
  parkedWaiters: 10_000,
  idleThreads: 10_000,
  soakMessages: 100_000,
};

const SOAK_THREADS = 500;
/** Messages of the soak's warm-up: enough for the engine's optimized code to be in place. */
const SOAK_WARM_UP = 20_000;
const SOAK_IN_FLIGHT = 16;
/** Full collections before each heap reading; see {@link heapAfterGc}. */
const FULL_COLLECTIONS = 10;
/** Past the default dedupe TTL (10 min) and queue entry TTL (90 s). */
const EXPIRE_ALL_MS = 11 * 60_000;

/**
 * Measures Baton's memory on the memory State with an injected clock (so TTLs can pass without
 * waiting): heap per parked waiter, per idle thread, and a soak after which the heap should be
 * back at its baseline. Every figure is a difference of `heapUsed` after full collections.
 */
export async function measureMemory(plan: MemoryPlan = DEFAULT_MEMORY_PLAN): Promise<MemoryReport> {
  const gc = exposedGc();
  // The soak first: its baseline then holds nothing the other measurements leave behind.
  const soak = await soakHeap(gc, plan.soakMessages);
  const parked = await parkedWaiterBytes(gc, plan.parkedWaiters);
  const idle = await idleThreadBytes(gc, plan.idleThreads);
  return {
    parkedWaiters: plan.parkedWaiters,
    bytesPerParkedWaiter: parked,
    idleThreads: plan.idleThreads,
    bytesPerIdleThread: idle.whileMarked,
    bytesPerIdleThreadAfterTtl: idle.afterTtl,
    soakMessages: plan.soakMessages,
    soakThreads: SOAK_THREADS,
    soakInFlight: SOAK_IN_FLIGHT,
    soakBaselineBytes: soak.baseline,
    soakAfterBytes: soak.after,
    soakUnanswered: soak.unanswered,
  };
}

/** A Chat on a fresh memory State and fake clock, counting its handler runs. */
async function memoryBot(strategy: "queue" | "drop", maxQueueSize = 10, maxDetached = 1_024) {
  const clock = createFakeClock();
  const observed = observeState(createMemoryState({ clock, fastPaths: true }));
  const state = observed.state as MemoryState;
  const adapter = createMockAdapter("bench", { userName: "bot" });
  const chat = new Chat({
    userName: "bot",
    adapters: { bench: adapter },
    state,
    clock,
    concurrency: { strategy, maxQueueSize, sweepIntervalMs: 3_600_000 },
    // Parked waiters count against the admission bound; the measurement parks more than 1 024.
    maxDetached,
    logger: "silent",
  });
  const answered = new Set<string>();
  let hold: Promise<unknown> | undefined;
  chat.onNewMention(async (_thread, message, context) => {
    answered.add(message.id);
    for (const skipped of context.skipped) answered.add(skipped.id);
    if (hold) await hold;
  });
  await chat.initialize();
  const send = (threadId: string, id: string) =>
    chat.processMessage(
      adapter,
      threadId,
      createTestMessage({ id, threadId, text: "@bot hi", isMention: true }),
    );
  const lockKeyOf = (threadId: string) =>
    lockKeyFor("thread", threadId, adapter.channelIdFromThreadId(threadId));
  const setHold = (until: Promise<unknown> | undefined) => {
    hold = until;
  };
  return { chat, clock, state, observed, answered, send, lockKeyOf, setHold };
}

/** Heap per contender parked behind one busy thread (its lock held by a waiting handler). */
async function parkedWaiterBytes(gc: () => void, waiters: number): Promise<number> {
  const bot = await memoryBot("queue", waiters + 1, waiters + 1);
  const threadId = "bench:C1:parked";
  let release = () => {};
  bot.setHold(
    new Promise<void>((resolve) => {
      release = resolve;
    }),
  );
  const holder = bot.send(threadId, "holder");
  await settle();
  const before = heapAfterGc(gc);
  const queued = bot.observed.enqueued(bot.lockKeyOf(threadId), waiters, 60_000);
  const contenders = Array.from({ length: waiters }, (_, index) => bot.send(threadId, `w${index}`));
  await queued;
  await settle();
  const after = heapAfterGc(gc);
  bot.setHold(undefined);
  release();
  await Promise.all([holder, ...contenders]);
  await bot.chat.shutdown({ timeoutMs: 5_000 });
  return (after - before) / waiters;
}

/** Heap per thread that handled one message, while its dedupe mark lives and after its TTL. */
async function idleThreadBytes(
  gc: () => void,
  threads: number,
): Promise<{ whileMarked: number; afterTtl: number }> {
  const bot = await memoryBot("drop");
  const pass = (name: string) =>
    runWithConcurrency(
      Array.from({ length: threads }, (_, index) => `bench:C1:${name}${index}`),
      SOAK_IN_FLIGHT,
      async (threadId) => {
        await bot.send(threadId, `${threadId}-m`);
      },
    );
  // A first pass of as many threads grows every table to its working size, so the second
  // measures data, not capacity.
  await pass("idle-warm");
  await quiesce(bot);
  const before = heapAfterGc(gc);
  await pass("idle");
  await settle();
  const marked = heapAfterGc(gc);
  await quiesce(bot);
  const expired = heapAfterGc(gc);
  await bot.chat.shutdown({ timeoutMs: 5_000 });
  return { whileMarked: (marked - before) / threads, afterTtl: (expired - before) / threads };
}

/**
 * The soak: `messages` messages over {@link SOAK_THREADS} threads, {@link SOAK_IN_FLIGHT} in
 * flight, then every TTL passes; the heap is compared with the one after the warm-up.
 */
async function soakHeap(
  gc: () => void,
  messages: number,
): Promise<{ baseline: number; after: number; unanswered: number }> {
  const bot = await memoryBot("queue");
  await warmUp(bot.send, "soak-warm", Math.min(messages, SOAK_WARM_UP));
  await quiesce(bot);
  const baseline = heapAfterGc(gc);
  const ids = Array.from({ length: messages }, (_, index) => index);
  await runWithConcurrency(ids, SOAK_IN_FLIGHT, async (index) => {
    await bot.send(`bench:C1:soak${index % SOAK_THREADS}`, `soak-${index}`);
  });
  let unanswered = 0;
  for (const index of ids) if (!bot.answered.has(`soak-${index}`)) unanswered += 1;
  bot.answered.clear();
  await quiesce(bot);
  const after = heapAfterGc(gc);
  await bot.chat.shutdown({ timeoutMs: 5_000 });
  return { baseline, after, unanswered };
}

/**
 * Runs the soak's pattern for `messages` messages, so the baseline after it has the compiled
 * code, the engine's feedback and the tables' working sizes that the soak would add otherwise.
 */
async function warmUp(
  send: (threadId: string, id: string) => Promise<unknown>,
  prefix: string,
  messages: number,
): Promise<void> {
  const ids = Array.from({ length: messages }, (_, index) => index);
  await runWithConcurrency(ids, SOAK_IN_FLIGHT, async (index) => {
    await send(`bench:C1:${prefix}${index % SOAK_THREADS}`, `${prefix}-${index}`);
  });
}

/**
 * Lets every TTL pass and the State purge, then runs a few messages and purges again: a table
 * emptied by one large purge keeps its capacity until it is next written to, so both heap
 * readings of the soak are taken in the same settled state.
 */
async function quiesce(bot: Awaited<ReturnType<typeof memoryBot>>): Promise<void> {
  await expireAndPurge(bot.clock, bot.state);
  for (let index = 0; index < 100; index += 1) {
    await bot.send(`bench:C1:quiet${index}`, `quiet-${bot.clock.now()}-${index}`);
  }
  bot.answered.clear();
  await expireAndPurge(bot.clock, bot.state);
}

async function expireAndPurge(clock: FakeClock, state: MemoryState): Promise<void> {
  await clock.advance(EXPIRE_ALL_MS);
  state.purgeExpired();
  await settle();
}

/**
 * `heapUsed` after enough full collections for V8 to have flushed the bytecode of functions not
 * run lately (module set-up code, say): it ages such code once per collection and drops it after
 * a few. With only one or two, a later measurement could come out lower for that alone.
 */
function heapAfterGc(gc: () => void): number {
  for (let collection = 0; collection < FULL_COLLECTIONS; collection += 1) gc();
  return process.memoryUsage().heapUsed;
}

/** A few event-loop turns, so settled work lets go of what it held. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** `gc()`, exposed at run time when the process was not started with `--expose-gc`. */
function exposedGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
