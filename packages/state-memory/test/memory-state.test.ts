import { isBatonError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createMemoryState } from "../src/index.js";

function fakeClock(startMs = Date.UTC(2026, 0, 1)) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

describe("createMemoryState", () => {
  it("purges expired values, locks and lists from memory on a write after purgeIntervalMs", async () => {
    const clock = fakeClock();
    const state = createMemoryState({ clock, purgeIntervalMs: 10_000 });
    await state.connect();
    await state.set("value", 1, 1_000);
    await state.acquireLock("lock", 1_000);
    await state.appendToList("list", 1, { ttlMs: 1_000 });
    expect(state.storedEntryCount()).toBe(3);

    clock.advance(5_000);
    await state.set("trigger-early", 1);
    expect(state.storedEntryCount()).toBe(4);

    clock.advance(5_000);
    await state.set("trigger", 1);
    expect(state.storedEntryCount()).toBe(2);
  });

  it("purgeExpired removes expired entries at once and keeps live ones", async () => {
    const clock = fakeClock();
    const state = createMemoryState({ clock });
    await state.connect();
    await state.set("short", 1, 100);
    await state.set("long", 1, 10_000);
    clock.advance(101);
    state.purgeExpired();
    expect(state.storedEntryCount()).toBe(1);
    expect(await state.get("long")).toBe(1);
  });

  it("forgets all data on disconnect but never repeats a fence after reconnecting", async () => {
    const state = createMemoryState();
    await state.connect();
    const before = await state.acquireLock("k", 60_000);
    await state.set("v", 1);
    await state.disconnect();
    await state.connect();
    expect(await state.get("v")).toBeNull();
    const after = await state.acquireLock("k", 60_000);
    expect(before && after && after.fence > before.fence).toBe(true);
  });

  it("names the step and the fix when called before connect()", async () => {
    const state = createMemoryState();
    const error = await state
      .enqueue(
        "q",
        { value: 1, enqueuedAt: 0, expiresAt: 1 },
        {
          maxSize: 1,
          onFull: "drop-oldest",
        },
      )
      .catch((caught: unknown) => caught);
    expect(isBatonError(error, "STATE_DISCONNECTED")).toBe(true);
    expect((error as Error).message).toMatch(/^enqueue: .*call connect\(\) first/);
  });

  it("rejects a purgeIntervalMs that is not positive", () => {
    expect(() => createMemoryState({ purgeIntervalMs: 0 })).toThrow(/purgeIntervalMs/);
  });

  it("rejects an empty key with a ValidationError naming the step", async () => {
    const state = createMemoryState();
    await state.connect();
    const error = await state.get("").catch((caught: unknown) => caught);
    expect(isBatonError(error, "VALIDATION_FAILED")).toBe(true);
    expect((error as Error).message).toMatch(/^get value: key must be a non-empty string/);
  });

  it("judges expiry by the injected clock, not by real time", async () => {
    const clock = fakeClock();
    const state = createMemoryState({ clock });
    await state.connect();
    const lock = await state.acquireLock("k", 1_000);
    expect(lock?.expiresAt).toBe(clock.now() + 1_000);
    clock.advance(999);
    expect(await state.acquireLock("k", 1_000)).toBeNull();
    clock.advance(1);
    expect(await state.acquireLock("k", 1_000)).not.toBeNull();
  });

  it("keeps turn records through purges, judges their lock by the injected clock and forgets them on disconnect", async () => {
    const clock = fakeClock();
    const state = createMemoryState({ clock, purgeIntervalMs: 1_000 });
    await state.connect();
    const turn = { entries: [], startedAt: clock.now() };
    const lock = await state.acquireLock("k", 1_000, { turn });
    expect(await state.pendingTurnKeys()).toEqual([]);
    clock.advance(1_000);
    state.purgeExpired();
    expect(await state.pendingTurnKeys()).toEqual(["k"]);
    expect(await state.inspectTurn("k")).toEqual({
      key: "k",
      entries: [],
      fence: lock?.fence,
      attempt: 1,
      startedAt: turn.startedAt,
    });
    await state.disconnect();
    await state.connect();
    expect(await state.inspectTurn("k")).toBeNull();
    const again = await state.acquireLock("k", 1_000, { turn });
    expect(lock && again && again.fence > lock.fence).toBe(true);
  });

  it("rejects a turn release or a turn write of the wrong shape before changing anything", async () => {
    const state = createMemoryState();
    await state.connect();
    const lock = await state.acquireLock("k", 60_000, { turn: { entries: [], startedAt: 0 } });
    if (!lock) throw new Error("the lock must be free");
    const badRelease = { turn: { kind: "hand-back", reason: "tired" } } as never;
    const releasing = await state.releaseLock(lock, badRelease).catch((caught: unknown) => caught);
    expect(isBatonError(releasing, "VALIDATION_FAILED")).toBe(true);
    expect((releasing as Error).message).toMatch(/^release lock: turn must be/);
    const badWrite = { entries: "m1", startedAt: 0 } as never;
    const writing = await state.writeTurn(lock, badWrite).catch((caught: unknown) => caught);
    expect(isBatonError(writing, "VALIDATION_FAILED")).toBe(true);
    expect((await state.inspectLock("k"))?.fence).toBe(lock.fence);
    expect((await state.inspectTurn("k"))?.entries).toEqual([]);
  });
});
