import { createFakeClock } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { MemoryTtlCache } from "../src/memory-ttl-cache.js";

describe("MemoryTtlCache", () => {
  it("answers a value until its time to live has passed, then nothing", async () => {
    const clock = createFakeClock();
    const cache = new MemoryTtlCache<string>(clock, { ttlMs: 1_000, maxEntries: 10 });
    cache.set("U1", "Ann");
    await clock.advance(999);
    expect(cache.get("U1")).toBe("Ann");
    await clock.advance(1);
    expect(cache.get("U1")).toBeUndefined();
    expect(cache.getAllowingStale("U1")).toBeUndefined();
  });

  it("keeps a null answer apart from an absent one", () => {
    const cache = new MemoryTtlCache<string | null>(createFakeClock(), {
      ttlMs: 1_000,
      maxEntries: 10,
    });
    cache.set("U1", null);
    expect(cache.get("U1")).toBeNull();
    expect(cache.get("U2")).toBeUndefined();
  });

  it("serves a lapsed value through the grace period only to getAllowingStale", async () => {
    const clock = createFakeClock();
    const cache = new MemoryTtlCache<string>(clock, {
      ttlMs: 1_000,
      staleGraceMs: 500,
      maxEntries: 10,
    });
    cache.set("U1", "Ann");
    await clock.advance(1_200);
    expect(cache.get("U1")).toBeUndefined();
    expect(cache.getAllowingStale("U1")).toBe("Ann");
    await clock.advance(300);
    expect(cache.getAllowingStale("U1")).toBeUndefined();
    // Once dropped, only a new value is served again.
    cache.set("U1", "Anne");
    expect(cache.get("U1")).toBe("Anne");
  });

  it("restarts the time to live when a value is set again", async () => {
    const clock = createFakeClock();
    const cache = new MemoryTtlCache<string>(clock, { ttlMs: 1_000, maxEntries: 10 });
    cache.set("U1", "Ann");
    await clock.advance(800);
    cache.set("U1", "Anne");
    await clock.advance(800);
    expect(cache.get("U1")).toBe("Anne");
  });

  it("holds at most maxEntries, dropping the entry written longest ago", () => {
    const cache = new MemoryTtlCache<number>(createFakeClock(), { ttlMs: 1_000, maxEntries: 3 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    // Writing "a" again makes it the newest, so "b" is now the oldest.
    cache.set("a", 10);
    cache.set("d", 4);
    expect(["a", "b", "c", "d"].map((key) => cache.get(key))).toEqual([10, undefined, 3, 4]);
  });

  it("forgets a deleted key at once", () => {
    const cache = new MemoryTtlCache<string>(createFakeClock(), { ttlMs: 1_000, maxEntries: 3 });
    cache.set("U1", "Ann");
    cache.delete("U1");
    expect(cache.get("U1")).toBeUndefined();
    expect(cache.getAllowingStale("U1")).toBeUndefined();
  });
});
