import { performance } from "node:perf_hooks";
import { Chat, lockKeyFor, type Message, type StateAdapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createMockAdapter, createTestMessage } from "@baton/testing";
import { createMemoryState as createUpstreamMemoryState } from "@chat-adapter/state-memory";
import { Chat as UpstreamChat, type StateAdapter as UpstreamStateAdapter } from "chat";
import type { Implementation } from "./bench-bot.js";
import { observeState } from "./observed-state.js";
import { quantile } from "./stats.js";
import { createUpstreamMessage, UpstreamBenchAdapter } from "./upstream-adapter.js";

/**
 * How a queued message meets its lock's release: `same-instance`, the contender waits on the
 * holder's own instance; `other-instance`, it arrived on a second `Chat` sharing the State and was
 * handed off (Baton only: the holder's release finds it in the queue).
 */
export type HandOffVariant = "same-instance" | "other-instance";

/** One implementation's hand-offs in one variant. */
export interface HandOffResult {
  readonly implementation: Implementation;
  readonly variant: HandOffVariant;
  /** Milliseconds from the holder's handler returning to the queued message's handler starting. */
  readonly latenciesMs: readonly number[];
  /** Queued messages no handler ran within the wait (should be 0). */
  readonly missed: number;
}

/** Median, p95 and worst of a result's latencies, in ms. */
export interface HandOffSummary {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

/** How long one hand-off may take before it counts as missed (it is not a measurement). */
const HAND_OFF_WAIT_MS = 5_000;

/**
 * Measures `handOffs` lock hand-offs on the memory State, one thread each: a holder's handler
 * waits until a contender is in the State queue (told by the State's own `enqueue` completing,
 * not by polling), notes the time and returns; the contender's handler notes when it starts. No
 * timer or poll is in that path: whatever the latency is, it is the runtime's wake-up.
 */
export async function measureHandOff(
  implementation: Implementation,
  variant: HandOffVariant,
  handOffs: number,
): Promise<HandOffResult> {
  if (implementation === "upstream" && variant === "other-instance") {
    throw new Error("the other-instance hand-off is measured for Baton only");
  }
  const timings = new Timings();
  const run = implementation === "baton" ? batonHandOffs : upstreamHandOffs;
  const missed = await run(variant, handOffs, timings);
  return { implementation, variant, latenciesMs: timings.latenciesMs, missed };
}

/** Summarizes a result; `undefined` when nothing was measured. */
export function summarizeHandOff(result: HandOffResult): HandOffSummary | undefined {
  const { latenciesMs } = result;
  if (latenciesMs.length === 0) return undefined;
  return {
    p50Ms: quantile(latenciesMs, 0.5) ?? 0,
    p95Ms: quantile(latenciesMs, 0.95) ?? 0,
    maxMs: Math.max(...latenciesMs),
  };
}

/**
 * The hand-offs' sequence and clock: each holder's start, the gate it waits at (opened once the
 * contender is queued), its end, and the contender's start, paired into latencies.
 */
class Timings {
  private readonly holderEnds = new Map<string, number>();
  readonly latenciesMs: number[] = [];
  private readonly started = new Map<string, () => void>();
  private readonly holders = new Map<string, { running: () => void; gate: Promise<unknown> }>();

  /** The holder's handler: says it runs, then waits until its contender is queued. */
  async holderRuns(threadId: string): Promise<void> {
    const holder = this.holders.get(threadId);
    holder?.running();
    await holder?.gate;
    this.holderEnds.set(threadId, performance.now());
  }

  /**
   * Before the holder is sent: resolves once its handler runs; the handler then waits for
   * `gate()`, which is asked for only then (so a waiter on the queue is set up before the
   * contender is sent, never after its entry landed).
   */
  holderStart(threadId: string, gate: () => Promise<unknown>): Promise<void> {
    let opened: (value: unknown) => void = () => {};
    const gated = new Promise((resolve) => {
      opened = resolve;
    });
    return new Promise((resolve) => {
      this.holders.set(threadId, {
        running: () => {
          gate().then(opened, opened);
          resolve();
        },
        gate: gated,
      });
    });
  }

  contenderStarted(threadId: string): void {
    const nowMs = performance.now();
    const endedAt = this.holderEnds.get(threadId);
    if (endedAt !== undefined) this.latenciesMs.push(nowMs - endedAt);
    this.started.get(threadId)?.();
  }

  /** Resolves true when the contender of `threadId` starts, false after the wait. */
  contenderStart(threadId: string): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), HAND_OFF_WAIT_MS);
      this.started.set(threadId, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

async function batonHandOffs(
  variant: HandOffVariant,
  handOffs: number,
  timings: Timings,
): Promise<number> {
  const observed = observeState(createMemoryState({ fastPaths: true }));
  const state = observed.state as StateAdapter;
  const adapter = createMockAdapter("bench", { userName: "bot" });
  const make = () => {
    const chat = new Chat({
      userName: "bot",
      adapters: { bench: adapter },
      state,
      concurrency: { strategy: "queue", sweepIntervalMs: 3_600_000 },
      logger: "silent",
    });
    chat.onNewMention(async (thread, message) => {
      if (message.id.endsWith("-holder")) await timings.holderRuns(thread.id);
      else timings.contenderStarted(thread.id);
    });
    return chat;
  };
  const lockKeyOf = (threadId: string) =>
    lockKeyFor("thread", threadId, adapter.channelIdFromThreadId(threadId));
  const holderChat = make();
  const contenderChat = variant === "same-instance" ? holderChat : make();
  await holderChat.initialize();
  await contenderChat.initialize();
  const send = (chat: Chat, message: Message) =>
    chat.processMessage(adapter, message.threadId, message).catch(() => undefined);
  try {
    return await drive(handOffs, timings, {
      queued: (threadId) => observed.enqueued(lockKeyOf(threadId), 1, HAND_OFF_WAIT_MS),
      sendHolder: (threadId, id) => send(holderChat, batonMention(threadId, id)),
      sendContender: (threadId, id) => send(contenderChat, batonMention(threadId, id)),
    });
  } finally {
    await holderChat.shutdown({ timeoutMs: 5_000 });
    if (contenderChat !== holderChat) await contenderChat.shutdown({ timeoutMs: 5_000 });
  }
}

async function upstreamHandOffs(
  _variant: HandOffVariant,
  handOffs: number,
  timings: Timings,
): Promise<number> {
  const observed = observeState(createUpstreamMemoryState());
  const adapter = new UpstreamBenchAdapter("bench", "bot");
  const chat = new UpstreamChat({
    userName: "bot",
    adapters: { bench: adapter },
    state: observed.state as unknown as UpstreamStateAdapter,
    concurrency: "queue",
    logger: "silent",
  });
  chat.onNewMention(async (thread, message) => {
    if (message.id.endsWith("-holder")) await timings.holderRuns(thread.id);
    else timings.contenderStarted(thread.id);
  });
  await chat.initialize();
  const send = (threadId: string, id: string) =>
    chat
      .processMessage(adapter, threadId, createUpstreamMessage({ id, threadId, text: "@bot go" }))
      .catch(() => undefined);
  try {
    return await drive(handOffs, timings, {
      // Upstream locks and queues under the bare thread id.
      queued: (threadId) => observed.enqueued(threadId, 1, HAND_OFF_WAIT_MS),
      sendHolder: send,
      sendContender: send,
    });
  } finally {
    await chat.shutdown();
  }
}

/** How one implementation sends the two messages of a hand-off and learns of the queueing. */
interface HandOffSteps {
  /** Resolves once an entry landed in the thread's queue (set up before the contender is sent). */
  queued(threadId: string): Promise<unknown>;
  sendHolder(threadId: string, id: string): Promise<unknown>;
  sendContender(threadId: string, id: string): Promise<unknown>;
}

/**
 * Runs the hand-offs one thread at a time: the holder first, the contender once the holder's
 * handler runs. Resolves with how many contenders never started.
 */
async function drive(handOffs: number, timings: Timings, steps: HandOffSteps): Promise<number> {
  const runId = Date.now().toString(36);
  let missed = 0;
  for (let index = 0; index < handOffs; index += 1) {
    const threadId = `bench:C1:h${runId}-${index}`;
    const holderRunning = timings.holderStart(threadId, () => steps.queued(threadId));
    const started = timings.contenderStart(threadId);
    const holder = steps.sendHolder(threadId, `${threadId}-holder`);
    await holderRunning;
    const contender = steps.sendContender(threadId, `${threadId}-contender`);
    if (!(await started)) missed += 1;
    await Promise.all([holder, contender]);
  }
  return missed;
}

function batonMention(threadId: string, id: string): Message {
  return createTestMessage({ id, threadId, text: "@bot go", isMention: true });
}
