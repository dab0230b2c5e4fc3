import { StateError } from "@baton/core";
import { MemoryState } from "@baton/state-memory";
import { describe, expect, it } from "vitest";
import { createFakeClock, createTestState } from "../src/index.js";

describe("createTestState", () => {
  it("returns a connected MemoryState from @baton/state-memory", async () => {
    const state = await createTestState();
    expect(state).toBeInstanceOf(MemoryState);
    await state.set("k", { v: 1 });
    await expect(state.get("k")).resolves.toEqual({ v: 1 });
    await state.subscribe("mock:C1:T1");
    await expect(state.isSubscribed("mock:C1:T1")).resolves.toBe(true);
  });

  it("gives each call its own state", async () => {
    const a = await createTestState();
    const b = await createTestState();
    await a.set("k", "a");
    await expect(b.get("k")).resolves.toBeNull();
  });

  it("judges lock expiry by the fake clock: a ttl-1000 lock is free again after advance(1001)", async () => {
    const clock = createFakeClock();
    const state = await createTestState({ clock });
    const first = await state.acquireLock("thread:mock:C1:T1", 1_000);
    expect(first).not.toBeNull();
    expect(first?.expiresAt).toBe(clock.now() + 1_000);
    await expect(state.acquireLock("thread:mock:C1:T1", 1_000)).resolves.toBeNull();
    await clock.advance(999);
    await expect(state.acquireLock("thread:mock:C1:T1", 1_000)).resolves.toBeNull();
    await clock.advance(2);
    const second = await state.acquireLock("thread:mock:C1:T1", 1_000);
    expect(second).not.toBeNull();
    expect(second?.fence).toBeGreaterThan(first?.fence ?? Number.POSITIVE_INFINITY);
    if (first) await expect(state.extendLock(first, 1_000)).resolves.toBe(false);
  });

  it("expires values by the fake clock", async () => {
    const clock = createFakeClock();
    const state = await createTestState({ clock });
    await state.set("dedupe:mock:m1", true, 500);
    await clock.advance(499);
    await expect(state.get("dedupe:mock:m1")).resolves.toBe(true);
    await clock.advance(1);
    await expect(state.get("dedupe:mock:m1")).resolves.toBeNull();
  });

  it("behaves like the real backend after disconnect", async () => {
    const state = await createTestState();
    await state.disconnect();
    await expect(state.get("k")).rejects.toBeInstanceOf(StateError);
  });
});
