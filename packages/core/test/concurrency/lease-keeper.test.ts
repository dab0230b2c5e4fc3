import { createMemoryState, type MemoryState } from "@baton/state-memory";
import { createFakeClock, type FakeClock } from "@baton/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { Clock } from "../../src/clock/index.js";
import { LeaseKeeper } from "../../src/concurrency/lease-keeper.js";
import type { LeaseKeeperOptions } from "../../src/concurrency/lease-keeper-options.js";
import { type Lock, type Logger, silentLogger } from "../../src/contracts/index.js";
import { LockLostError, StateError, ValidationError } from "../../src/errors/index.js";
import { lockKeyFor } from "../../src/thread-id/index.js";

const TTL_MS = 30_000;
const INTERVAL_MS = TTL_MS / 3;
const KEY = lockKeyFor("thread", "mock:C1:T1", "mock:C1");

/** Keepers and gates a test made; cleaned up after it, also when it fails. */
const stopAfterTest: { stop(): Promise<void> }[] = [];
const gatesOfTest: ExtendGate[] = [];
afterEach(async () => {
  // A failed assertion can leave a gate closed; stop() would then wait for its extend forever.
  for (const gate of gatesOfTest.splice(0)) gate.open();
  for (const keeper of stopAfterTest.splice(0)) await keeper.stop();
});

/**
 * Stands between the keeper and the real memory state's `extendLock`: it can hold calls (a stalled
 * request: the real call runs when the gate opens) or throw instead of calling. Every call that
 * passes reaches the real backend, so its answer is the backend's own.
 */
class ExtendGate {
  readonly sentAtMs: number[] = [];
  readonly ttlsMs: number[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Thrown instead of calling the backend: `failNext` first, one per call, then `failWith`. */
  failWith: unknown;
  readonly failNext: unknown[] = [];
  private closed = false;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly state: MemoryState,
    private readonly clock: Clock,
    private readonly events: string[],
  ) {}

  readonly extendLock = async (lock: Lock, ttlMs: number): Promise<boolean> => {
    this.sentAtMs.push(this.clock.now());
    this.ttlsMs.push(ttlMs);
    this.events.push("extend sent");
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.closed) await new Promise<void>((resolve) => this.waiting.push(resolve));
      const failure = this.failNext.length > 0 ? this.failNext.shift() : this.failWith;
      if (failure !== undefined) throw failure;
      return await this.state.extendLock(lock, ttlMs);
    } finally {
      this.inFlight -= 1;
      this.events.push("extend settled");
    }
  };

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.closed = false;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/** A real memory state on a fake clock, a freshly acquired lock, and the options of its keeper. */
async function setup(overrides: Partial<LeaseKeeperOptions> = {}, backendClock?: Clock) {
  const clock = createFakeClock();
  const state = createMemoryState({ clock: backendClock ?? clock });
  await state.connect();
  const lock = await state.acquireLock(KEY, TTL_MS);
  if (!lock) throw new Error("the test lock should be free");
  const events: string[] = [];
  const warnings: string[] = [];
  const lostErrors: LockLostError[] = [];
  const gate = new ExtendGate(state, clock, events);
  gatesOfTest.push(gate);
  const note = (message: string) => warnings.push(message);
  const logger: Logger = { ...silentLogger, warn: note, error: note };
  const startMs = clock.now();
  const keeperOptions: LeaseKeeperOptions = {
    state: { extendLock: gate.extendLock },
    lock,
    lockTtlMs: TTL_MS,
    clock,
    logger,
    onLost: (error) => lostErrors.push(error),
    ...overrides,
  };
  return {
    clock,
    state,
    lock,
    gate,
    events,
    warnings,
    lostErrors,
    keeperOptions,
    /** Moves the fake clock to `ms` after the acquire, firing every timer on the way. */
    at: (ms: number) => clock.advanceTo(startMs + ms),
    /** The epoch time `ms` after the acquire. */
    t: (ms: number) => startMs + ms,
  };
}

type Harness = Awaited<ReturnType<typeof setup>>;

async function started(overrides: Partial<LeaseKeeperOptions> = {}, backendClock?: Clock) {
  const harness = await setup(overrides, backendClock);
  const keeper = new LeaseKeeper(harness.keeperOptions);
  keeper.start();
  stopAfterTest.push(keeper);
  return { ...harness, keeper };
}

/** The part of a keeper the scenarios below observe, so a naive keeper can run them too. */
type KeeperUnderTest = { start(): void; stop(): Promise<void>; readonly heldUntil: number };

/**
 * The first extend (sent at 10 s) stalls until `openAtMs`. With 25 s it spans the renewal due at
 * 20 s; with 16 s it is simply answered late.
 */
async function stalledFirstExtend(
  makeKeeper: (harness: Harness) => KeeperUnderTest,
  openAtMs: number,
) {
  const harness = await setup({ extendTimeoutMs: 60_000 });
  const keeper = makeKeeper(harness);
  keeper.start();
  harness.gate.close();
  await harness.at(openAtMs);
  harness.gate.open();
  await harness.clock.settle();
  const heldUntilMs = keeper.heldUntil;
  await keeper.stop();
  return { ...harness, heldUntilMs };
}

function expectOneExtendInFlight(harness: Harness): void {
  expect(harness.gate.maxInFlight).toBe(1);
}

function expectHeldUntilFromSendTime(result: Harness & { heldUntilMs: number }): void {
  expect(result.heldUntilMs).toBe(result.t(INTERVAL_MS) + TTL_MS);
}

/** The mistakes the real keeper avoids: one extend per tick regardless, heldUntil from the answer. */
class NaiveKeeper implements KeeperUnderTest {
  heldUntil: number;
  private timer: ReturnType<Clock["setTimeout"]> | undefined;

  constructor(private readonly options: LeaseKeeperOptions) {
    this.heldUntil = options.lock.expiresAt;
  }

  start(): void {
    const { clock, lock, lockTtlMs, state } = this.options;
    const tick = () => {
      this.timer = clock.setTimeout(tick, lockTtlMs / 3);
      void state.extendLock(lock, lockTtlMs).then((ok) => {
        if (ok) this.heldUntil = clock.now() + lockTtlMs;
      });
    };
    this.timer = clock.setTimeout(tick, lockTtlMs / 3);
  }

  async stop(): Promise<void> {
    if (this.timer) this.options.clock.clearTimeout(this.timer);
  }
}

describe("LeaseKeeper", () => {
  it("renews every TTL/3 with the full TTL and keeps the lock held in the real memory state past several TTLs", async () => {
    const { keeper, gate, state, at, t } = await started();
    expect(keeper.heldUntil).toBe(t(TTL_MS));
    await at(100_000);
    expect(gate.sentAtMs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => t(n * INTERVAL_MS)));
    expect(gate.ttlsMs.every((ttlMs) => ttlMs === TTL_MS)).toBe(true);
    expect(await state.acquireLock(KEY, TTL_MS)).toBeNull();
    expect((await state.inspectLock(KEY))?.expiresAt).toBe(t(100_000 + TTL_MS));
    expect(keeper.held).toBe(true);
    expect(keeper.heldUntil).toBe(t(100_000 + TTL_MS));
    expect(keeper.signal.aborted).toBe(false);
  });

  it("does not send a second extend while one is blocked, and sends the overdue one once it settles", async () => {
    const harness = await stalledFirstExtend((h) => new LeaseKeeper(h.keeperOptions), 25_000);
    expectOneExtendInFlight(harness);
    expect(harness.gate.sentAtMs).toEqual([harness.t(10_000), harness.t(25_000)]);
  });

  it("counts an extend that outlives extendTimeoutMs as failed but sends no other until it settles", async () => {
    const { keeper, gate, warnings, at, t, clock } = await started({ extendTimeoutMs: 5_000 });
    gate.close();
    await at(15_000);
    expect(warnings.join("\n")).toMatch(/timed out; the lease is kept until/);
    expect(keeper.held).toBe(true);
    await at(27_000);
    expect(gate.sentAtMs).toEqual([t(10_000)]);
    gate.open();
    await clock.settle();
    // The late `true` of the timed-out call does not count; the next extend, sent at once, does.
    expect(gate.sentAtMs).toEqual([t(10_000), t(27_000)]);
    expect(keeper.heldUntil).toBe(t(27_000 + TTL_MS));
    expect(keeper.signal.aborted).toBe(false);
  });

  it("does not count a timed-out extend's late true as a renewal", async () => {
    const { keeper, gate, clock, at, t, lostErrors } = await started({ extendTimeoutMs: 5_000 });
    gate.close();
    await at(20_000);
    gate.failNext.push(undefined, new StateError("unavailable", "connection reset"));
    gate.open();
    await clock.settle();
    // The blocked call reached the backend and answered true, after its timeout: heldUntil stays.
    expect(keeper.heldUntil).toBe(t(TTL_MS));
    await at(TTL_MS);
    expect(lostErrors[0]?.message).toMatch(/the last extend failed: connection reset$/);
  });

  it("computes heldUntil from the time the extend was sent, not when its answer arrived", async () => {
    const result = await stalledFirstExtend((h) => new LeaseKeeper(h.keeperOptions), 16_000);
    expectHeldUntilFromSendTime(result);
  });

  it("keeps ownership after an extend throws before heldUntil, and renews normally after a later success", async () => {
    const { keeper, gate, state, at, t, warnings } = await started();
    gate.failWith = new StateError("unavailable", "connection reset");
    await at(10_000);
    expect(warnings.join("\n")).toMatch(/failed \(connection reset\)/);
    expect(keeper.held).toBe(true);
    expect(keeper.heldUntil).toBe(t(TTL_MS));
    gate.failWith = undefined;
    await at(20_000);
    expect(keeper.heldUntil).toBe(t(20_000 + TTL_MS));
    await at(90_000);
    expect(gate.sentAtMs).toHaveLength(9);
    expect(await state.acquireLock(KEY, TTL_MS)).toBeNull();
    expect(keeper.signal.aborted).toBe(false);
  });

  it("loses ownership when extends keep failing until heldUntil passes", async () => {
    const { keeper, gate, lock, lostErrors, warnings, at, t } = await started();
    const cause = new StateError("unavailable", "connection reset");
    gate.failWith = cause;
    await at(TTL_MS - 1);
    expect(keeper.held).toBe(true);
    expect(keeper.signal.aborted).toBe(false);
    await at(TTL_MS);
    expect(keeper.held).toBe(false);
    const reason = keeper.signal.reason as LockLostError;
    expect(reason).toBeInstanceOf(LockLostError);
    expect(reason).toMatchObject({ code: "LOCK_LOST", lockKey: KEY, fence: lock.fence, cause });
    expect(reason.message).toMatch(
      /^renew thread lock: no extend succeeded before the lease ran out at .*; the last extend failed: connection reset$/,
    );
    expect(lostErrors).toEqual([reason]);
    expect(warnings.at(-1)).toBe(reason.message);
    await at(TTL_MS * 4);
    expect(gate.sentAtMs).toEqual([t(10_000), t(20_000)]);
    expect(lostErrors).toHaveLength(1);
  });

  it("loses ownership at once when extendLock returns false after forceReleaseLock", async () => {
    const { keeper, gate, state, lostErrors, at, t } = await started();
    await at(5_000);
    await state.forceReleaseLock(KEY);
    await at(INTERVAL_MS);
    expect(keeper.held).toBe(false);
    expect(keeper.signal.reason).toBeInstanceOf(LockLostError);
    expect((keeper.signal.reason as Error).message).toMatch(
      /^renew thread lock: extend returned false/,
    );
    expect(lostErrors).toHaveLength(1);
    await at(TTL_MS * 3);
    expect(gate.sentAtMs).toEqual([t(INTERVAL_MS)]);
  });

  it("loses ownership at once when the backend's clock says the lease already expired", async () => {
    const backendClock = createFakeClock();
    const harness = await started({}, backendClock);
    await backendClock.advance(TTL_MS + 1_000);
    await harness.at(INTERVAL_MS);
    expect(harness.lostErrors).toHaveLength(1);
    expect(harness.lostErrors[0]?.message).toMatch(/extend returned false/);
    expect(harness.keeper.signal.aborted).toBe(true);
    expect(await harness.state.acquireLock(KEY, TTL_MS)).not.toBeNull();
  });

  it("stops renewing after maxLockLifetimeMs, so another contender takes the lock within one TTL", async () => {
    const lifetimeMs = 60_000;
    const { keeper, gate, state, lostErrors, warnings, at, t } = await started({
      maxLockLifetimeMs: lifetimeMs,
    });
    await at(lifetimeMs);
    expect(warnings.join("\n")).toMatch(/exceeded maxLockLifetimeMs \(60000 ms\); renewal stopped/);
    const lastSentMs = gate.sentAtMs.at(-1) ?? 0;
    expect(lastSentMs).toBeLessThan(t(lifetimeMs));
    expect(keeper.held).toBe(true);
    await at(lastSentMs - t(0) + TTL_MS - 1);
    expect(await state.acquireLock(KEY, TTL_MS)).toBeNull();
    expect(lostErrors).toEqual([]);
    await at(lastSentMs - t(0) + TTL_MS);
    expect(lostErrors).toHaveLength(1);
    expect(lostErrors[0]?.message).toMatch(
      /^renew thread lock: the handler run exceeded maxLockLifetimeMs/,
    );
    expect(keeper.held).toBe(false);
    await at(lifetimeMs + TTL_MS);
    expect(await state.acquireLock(KEY, TTL_MS)).not.toBeNull();
    expect(gate.sentAtMs.every((sentMs) => sentMs < t(lifetimeMs))).toBe(true);
  });

  it("restarts the lifetime clock on beginRun for the next handler run of a drain", async () => {
    const { keeper, gate, at, t, lostErrors } = await started({ maxLockLifetimeMs: 60_000 });
    await at(45_000);
    keeper.beginRun();
    await at(100_000);
    expect(gate.sentAtMs.at(-1)).toBe(t(100_000));
    expect(keeper.held).toBe(true);
    await at(200_000);
    // The second run's lifetime ended at 105 s: the last extend went out at 100 s.
    expect(gate.sentAtMs.at(-1)).toBe(t(100_000));
    expect(lostErrors).toHaveLength(1);
  });

  it("resumes renewal on beginRun when the previous run outlived its lifetime but the lease is still held", async () => {
    const { keeper, gate, at, t, lostErrors } = await started({ maxLockLifetimeMs: 60_000 });
    await at(70_000);
    expect(gate.sentAtMs.at(-1)).toBe(t(50_000));
    keeper.beginRun();
    await at(70_000);
    expect(gate.sentAtMs.at(-1)).toBe(t(70_000));
    expect(keeper.heldUntil).toBe(t(70_000 + TTL_MS));
    await at(120_000);
    expect(lostErrors).toEqual([]);
  });

  it("waits in stop() for a blocked extend, so a release after stop() comes strictly after the extend settled", async () => {
    const { keeper, gate, state, lock, events, clock, at } = await started();
    gate.close();
    await at(INTERVAL_MS);
    const released = keeper.stop().then(async () => {
      events.push("stop resolved");
      events.push(`released: ${await state.releaseLock(lock)}`);
    });
    await at(INTERVAL_MS + 5_000);
    expect(events).toEqual(["extend sent"]);
    gate.open();
    await clock.settle();
    await released;
    expect(events).toEqual(["extend sent", "extend settled", "stop resolved", "released: true"]);
    expect(await state.inspectLock(KEY)).toBeNull();
  });

  it("makes stop() idempotent: it sends no further extend, reports no loss and leaves the signal alone", async () => {
    const { keeper, gate, lostErrors, at } = await started();
    await at(INTERVAL_MS);
    const first = keeper.stop();
    expect(keeper.stop()).toBe(first);
    await first;
    await at(TTL_MS * 5);
    expect(gate.sentAtMs).toHaveLength(1);
    expect(keeper.signal.aborted).toBe(false);
    expect(lostErrors).toEqual([]);
    keeper.start();
    await at(TTL_MS * 6);
    expect(gate.sentAtMs).toHaveLength(1);
  });

  it("extends at once when start() comes after a third of the lease has already run", async () => {
    const harness = await setup();
    await harness.at(15_000);
    const keeper = new LeaseKeeper(harness.keeperOptions);
    keeper.start();
    stopAfterTest.push(keeper);
    await harness.clock.advance(0);
    expect(harness.gate.sentAtMs).toEqual([harness.t(15_000)]);
  });

  it("leaves no unhandled rejection behind failing, timed-out or late-rejecting extends", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { keeper, gate, clock, at } = await started({
        extendTimeoutMs: 2_000,
        onLost: () => {
          throw new Error("onLost blew up");
        },
      });
      gate.failWith = new Error("boom");
      await at(INTERVAL_MS);
      gate.close();
      await at(TTL_MS + 5_000);
      expect(keeper.signal.aborted).toBe(true);
      gate.open();
      await clock.settle();
      await keeper.stop();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it("refuses non-positive durations at construction, naming each one", async () => {
    const { keeperOptions } = await setup();
    const bad = { lockTtlMs: 0, extendTimeoutMs: -1, maxLockLifetimeMs: Number.NaN };
    const build = () => new LeaseKeeper({ ...keeperOptions, ...bad });
    expect(build).toThrow(ValidationError);
    expect(build).toThrow(
      /^create lease keeper: lockTtlMs .*; extendTimeoutMs .*; maxLockLifetimeMs/,
    );
  });

  it("catches a naive keeper that doubles blocked extends and dates heldUntil from the answer", async () => {
    const naive = (h: Harness) => new NaiveKeeper(h.keeperOptions);
    const doubled = await stalledFirstExtend(naive, 25_000);
    expect(() => expectOneExtendInFlight(doubled)).toThrow();
    const late = await stalledFirstExtend(naive, 16_000);
    expect(() => expectHeldUntilFromSendTime(late)).toThrow();
  });
});
