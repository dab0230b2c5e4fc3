import { type ChatConfig, type MessageContext, type Observer, sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createTestMessage, type FakeClock } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { botInstance } from "./chat-harness.js";
import { instanceState } from "./instance-state.js";
import { outcomeRecorder } from "./outcome-recorder.js";

const T1 = "mock:C1:T1";
const LOCK_KEY = `thread:${T1}`;
const LOCK_TTL_MS = 1_000;
const SWEEP_INTERVAL_MS = 200;

/** One handler run as a test sees it. */
interface Run {
  readonly instance: string;
  readonly id: string;
  readonly attempt: number;
  readonly interrupted?: MessageContext["interrupted"];
  readonly skipped: string[];
}

type Behaviour = (
  id: string,
  context: MessageContext,
  self: { kill(): void; clock: FakeClock },
) => Promise<void>;

/** Waits forever: a handler in a process that froze or died. */
const never = () => new Promise<void>(() => {});

/**
 * Instances of one bot on one shared memory State and fake clock, each with its own connection
 * (which a test can kill) and the same handler behaviour.
 */
function cluster(fastPaths: boolean, config: Partial<ChatConfig> = {}) {
  const clock = createFakeClock();
  const shared = createMemoryState({ clock, fastPaths });
  const runs: Run[] = [];
  const abandoned: Run[] = [];
  const start = async (
    name: string,
    behave: Behaviour,
    observer?: Observer,
    sweepIntervalMs = SWEEP_INTERVAL_MS,
  ) => {
    const connection = instanceState(shared);
    const { chat, adapter } = botInstance(connection.state, clock, {
      concurrency: { strategy: "queue", lockTtlMs: LOCK_TTL_MS, sweepIntervalMs },
      ...(observer ? { observer } : {}),
      ...config,
    });
    const self = { kill: connection.kill, clock };
    chat.onNewMention(async (_thread, message, context) => {
      runs.push(runOf(name, message.id, context));
      await behave(message.id, context, self);
    });
    chat.onTurnAbandoned(async (_thread, message, context) => {
      abandoned.push(runOf(name, message.id, context));
    });
    await chat.initialize();
    const send = (id: string) =>
      chat.processMessage(adapter, T1, createTestMessage({ id, text: `@bot ${id}`, threadId: T1 }));
    return { chat, send, kill: connection.kill };
  };
  return { clock, shared, runs, abandoned, start };
}

function runOf(instance: string, id: string, context: MessageContext): Run {
  return {
    instance,
    id,
    attempt: context.attempt,
    ...(context.interrupted ? { interrupted: context.interrupted } : {}),
    skipped: context.skipped.map((message) => message.id),
  };
}

describe.each([
  ["separate calls", false],
  ["fused fast paths", true],
])("durable turns (%s)", (_name, fastPaths) => {
  it("runs a killed holder's turn again on a survivor, attempt 2, before the message queued behind it", async () => {
    const c = cluster(fastPaths);
    const a = await c.start("a", (id) => (id === "first" ? never() : Promise.resolve()));
    const b = await c.start("b", async () => {});
    const startedAtMs = c.clock.now();
    void a.send("first");
    await c.clock.advance(10);
    expect(c.runs).toEqual([{ instance: "a", id: "first", attempt: 1, skipped: [] }]);
    expect(await b.send("second")).toEqual({
      outcome: "queued",
      reason: "held by another instance",
    });

    a.kill();
    await c.clock.advance(LOCK_TTL_MS + SWEEP_INTERVAL_MS);
    expect(c.runs.slice(1)).toEqual([
      {
        instance: "b",
        id: "first",
        attempt: 2,
        interrupted: { attempt: 1, startedAt: new Date(startedAtMs), reason: "lease-expired" },
        skipped: [],
      },
      { instance: "b", id: "second", attempt: 1, skipped: [] },
    ]);
    expect(await c.shared.inspectTurn?.(LOCK_KEY)).toBeNull();
    await b.chat.shutdown();
  });

  it("hands a turn back when its handler throws on the shutdown abort; another instance runs it within one sweep interval", async () => {
    const c = cluster(fastPaths);
    const a = await c.start("a", (_id, context, self) => sleep(self.clock, 60_000, context.signal));
    const b = await c.start("b", async () => {});
    const first = a.send("first");
    await c.clock.advance(10);

    await a.chat.shutdown();
    expect(await first).toEqual({
      outcome: "queued",
      reason: "turn handed back for another instance",
    });
    const record = await c.shared.inspectTurn?.(LOCK_KEY);
    expect(record).toMatchObject({ attempt: 1, handedBack: "shutdown" });
    expect(await c.shared.inspectLock(LOCK_KEY)).toBeNull();

    await c.clock.advance(SWEEP_INTERVAL_MS);
    expect(
      c.runs.map(({ instance, attempt, interrupted }) => [instance, attempt, interrupted?.reason]),
    ).toEqual([
      ["a", 1, undefined],
      ["b", 2, "shutdown"],
    ]);
    await b.chat.shutdown();
  });

  it("hands back a turn whose handler ignores its signal past the shutdown deadline", async () => {
    const c = cluster(fastPaths);
    const a = await c.start("a", (id) => (id === "first" ? never() : Promise.resolve()));
    const b = await c.start("b", async () => {});
    void a.send("first");
    await c.clock.advance(10);

    const stopping = a.chat.shutdown({ timeoutMs: 500 });
    await c.clock.advance(500);
    await stopping;
    expect(await c.shared.inspectTurn?.(LOCK_KEY)).toMatchObject({ handedBack: "shutdown" });

    await c.clock.advance(SWEEP_INTERVAL_MS);
    expect(c.runs.map((run) => [run.instance, run.attempt])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    await b.chat.shutdown();
  });

  it("runs a turn whose holder lost its lease again on the next holder, never alongside the old run", async () => {
    const c = cluster(fastPaths);
    let running = 0;
    let overlapped = false;
    const careful: Behaviour = async (_id, context, self) => {
      running += 1;
      overlapped ||= running > 1;
      try {
        await sleep(self.clock, 5_000, context.signal);
      } finally {
        running -= 1;
      }
    };
    const shared = c.shared;
    // a sweeps rarely, so the turn it hands back is not picked up by a itself first.
    const a = await c.start("a", careful, undefined, 60_000);
    // The State stops answering a's renewals (a partition): a loses the lease and stops.
    const extend = shared.extendLock.bind(shared);
    let partitioned = false;
    shared.extendLock = (lock, ttlMs) =>
      partitioned ? Promise.reject(new Error("unreachable")) : extend(lock, ttlMs);
    const first = a.send("first");
    await c.clock.advance(10);
    partitioned = true;
    await c.clock.advance(LOCK_TTL_MS);
    expect(await first).toEqual({
      outcome: "queued",
      reason: "turn handed back for another instance",
    });
    expect(await shared.inspectTurn?.(LOCK_KEY)).toMatchObject({ handedBack: "lease-lost" });
    partitioned = false;
    // Started only now, so its sweeps cannot race a's hand-back: the reason is deterministic.
    const b = await c.start("b", careful);

    await c.clock.advance(SWEEP_INTERVAL_MS);
    await c.clock.advance(5_000);
    expect(c.runs.map((run) => [run.instance, run.attempt, run.interrupted?.reason])).toEqual([
      ["a", 1, undefined],
      ["b", 2, "lease-lost"],
    ]);
    expect(overlapped).toBe(false);
    expect(await shared.inspectTurn?.(LOCK_KEY)).toBeNull();
    await Promise.all([a.chat.shutdown(), b.chat.shutdown()]);
  });

  it("abandons a poison turn after maxAttempts and runs onTurnAbandoned exactly once across instances", async () => {
    const c = cluster(fastPaths, { durableTurns: { maxAttempts: 2 } });
    // The handler takes its process down every time (a poison message).
    const poison: Behaviour = (_id, _context, self) => {
      self.kill();
      return never();
    };
    const recorders = [outcomeRecorder(), outcomeRecorder(), outcomeRecorder()];
    const instances = [
      await c.start("a", poison, recorders[0]?.observer),
      await c.start("b", poison, recorders[1]?.observer),
      await c.start("c", poison, recorders[2]?.observer),
    ];
    void instances[0]?.send("poison");
    await c.clock.advance(10);
    for (let round = 0; round < 4; round += 1) {
      await c.clock.advance(LOCK_TTL_MS + SWEEP_INTERVAL_MS);
    }

    expect(c.runs.map((run) => run.attempt)).toEqual([1, 2]);
    expect(c.abandoned).toHaveLength(1);
    expect(c.abandoned[0]).toMatchObject({ id: "poison", attempt: 3, interrupted: { attempt: 2 } });
    const counted = recorders.flatMap((recorder) => recorder.counted);
    expect(counted.filter((outcome) => outcome === "abandoned")).toEqual(["abandoned"]);
    expect(await c.shared.inspectTurn?.(LOCK_KEY)).toBeNull();
  });
});

describe("one terminal disposition when a run outlives its turn", () => {
  it("records nothing terminal for a run that returns after losing its lease; the recovered run records it", async () => {
    const c = cluster(true);
    const aCounts = outcomeRecorder();
    const bCounts = outcomeRecorder();
    // Ignores its signal on purpose: it returns long after its lease was lost.
    const stubborn: Behaviour = (_id, _context, self) => sleep(self.clock, 3_000);
    const a = await c.start("a", stubborn, aCounts.observer, 60_000);
    const extend = c.shared.extendLock.bind(c.shared);
    let partitioned = false;
    c.shared.extendLock = (lock, ttlMs) =>
      partitioned ? Promise.reject(new Error("unreachable")) : extend(lock, ttlMs);
    const first = a.send("first");
    await c.clock.advance(10);
    partitioned = true;
    await c.clock.advance(LOCK_TTL_MS);
    partitioned = false;
    const b = await c.start("b", async () => {}, bCounts.observer);
    await c.clock.advance(SWEEP_INTERVAL_MS);
    await c.clock.advance(3_000);

    expect(await first).toEqual({
      outcome: "queued",
      reason: "turn handed back for another instance",
    });
    expect(c.runs.map((run) => [run.instance, run.attempt])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(aCounts.counted).toEqual(["handed-off"]);
    expect(bCounts.counted).toEqual(["handled"]);
    await Promise.all([a.chat.shutdown(), b.chat.shutdown()]);
  });

  it("records nothing terminal for a run that returns after shutdown's deadline handed its turn back", async () => {
    const c = cluster(true);
    const aCounts = outcomeRecorder();
    const bCounts = outcomeRecorder();
    const stubborn: Behaviour = (_id, _context, self) => sleep(self.clock, 2_000);
    const a = await c.start("a", stubborn, aCounts.observer);
    const b = await c.start("b", async () => {}, bCounts.observer);
    const first = a.send("first");
    await c.clock.advance(10);
    const stopping = a.chat.shutdown({ timeoutMs: 500 });
    await c.clock.advance(500);
    await stopping;
    await c.clock.advance(2_000);

    expect((await first).outcome).toBe("queued");
    expect(c.runs.map((run) => [run.instance, run.attempt])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(aCounts.counted).toEqual(["handed-off"]);
    expect(bCounts.counted).toEqual(["handled"]);
    await b.chat.shutdown();
  });
});

describe("run events of a recovered turn", () => {
  it("carry the attempt, so tools can show a turn run again", async () => {
    const c = cluster(true);
    const attempts: Array<[string, number | undefined]> = [];
    const observer: Observer = {
      onDispatchEvent: (event) => {
        if (event.kind === "run-started") attempts.push([event.deliveryKey, event.attempt]);
      },
    };
    const a = await c.start("a", (id) => (id === "first" ? never() : Promise.resolve()));
    const b = await c.start("b", async () => {}, observer);
    void a.send("first");
    await c.clock.advance(10);
    a.kill();
    await c.clock.advance(LOCK_TTL_MS + SWEEP_INTERVAL_MS);
    expect(await b.send("second")).toEqual({ outcome: "handled" });
    expect(attempts).toEqual([
      ["mock:first", 2],
      ["mock:second", 1],
    ]);
    await b.chat.shutdown();
  });
});

describe("turn records", () => {
  it("are written with the lock, carry the turn's message, and are gone after the release", async () => {
    const c = cluster(true);
    let seen: unknown;
    const a = await c.start("a", async () => {
      seen = await c.shared.inspectTurn?.(LOCK_KEY);
    });
    expect(await a.send("first")).toEqual({ outcome: "handled" });
    expect(seen).toMatchObject({ key: LOCK_KEY, attempt: 1 });
    expect(seen).not.toHaveProperty("handedBack");
    const entries = (seen as { entries: Array<{ value: { deliveryKey: string } }> }).entries;
    expect(entries.map((entry) => entry.value.deliveryKey)).toEqual(["mock:first"]);
    expect(await c.shared.inspectTurn?.(LOCK_KEY)).toBeNull();
    await a.chat.shutdown();
  });

  it("are not written with durableTurns: false", async () => {
    const c = cluster(true, { durableTurns: false });
    let seen: unknown = "not read";
    const a = await c.start("a", async () => {
      seen = await c.shared.inspectTurn?.(LOCK_KEY);
    });
    expect(await a.send("first")).toEqual({ outcome: "handled" });
    expect(seen).toBeNull();
    await a.chat.shutdown();
  });
});
