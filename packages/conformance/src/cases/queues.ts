import assert from "node:assert/strict";
import type { QueueEntry } from "@baton/core";
import { defineCases } from "../conformance-case.js";
import { assertRejectsWithCode, concurrently, entryId, queueEntry } from "./support.js";

const DROP_OLDEST = { maxSize: 10, onFull: "drop-oldest" } as const;

async function drain(dequeue: () => Promise<QueueEntry | null>): Promise<unknown[]> {
  const ids: unknown[] = [];
  for (let entry = await dequeue(); entry !== null; entry = await dequeue()) {
    ids.push(entryId(entry));
  }
  return ids;
}

export const queueCases = defineCases("queues", {
  "should enqueue and dequeue a single entry": async ({ state }) => {
    const entry = queueEntry("m1");
    const result = await state.enqueue("q", entry, DROP_OLDEST);
    assert.deepEqual(result, { depth: 1, evicted: [] });
    assert.deepEqual(await state.dequeue("q"), entry);
    assert.equal(await state.queueDepth("q"), 0);
  },

  "should return null when dequeuing from empty queue": async ({ state }) => {
    await state.enqueue("q", queueEntry("m1"), DROP_OLDEST);
    await state.dequeue("q");
    assert.equal(await state.dequeue("q"), null);
  },

  "should return null when dequeuing from nonexistent thread": async ({ state }) => {
    assert.equal(await state.dequeue("never-used"), null);
  },

  "should return 0 depth for empty queue": async ({ state }) => {
    assert.equal(await state.queueDepth("never-used"), 0);
  },

  "should dequeue in FIFO order": async ({ state }) => {
    for (const id of ["m1", "m2", "m3"]) {
      await state.enqueue("q", queueEntry(id), DROP_OLDEST);
    }
    assert.equal(await state.queueDepth("q"), 3);
    assert.deepEqual(await drain(() => state.dequeue("q")), ["m1", "m2", "m3"]);
  },

  "should trim to maxSize keeping newest entries": async ({ state }) => {
    const options = { maxSize: 2, onFull: "drop-oldest" } as const;
    await state.enqueue("q", queueEntry("m1"), options);
    await state.enqueue("q", queueEntry("m2"), options);
    const result = await state.enqueue("q", queueEntry("m3"), options);
    assert.equal(result.depth, 2);
    assert.deepEqual(result.evicted.map(entryId), ["m1"], "drop-oldest reports the evicted head");
    assert.deepEqual(await drain(() => state.dequeue("q")), ["m2", "m3"]);
  },

  "drop-newest refuses the new entry and leaves the queue unchanged": async ({ state }) => {
    const options = { maxSize: 2, onFull: "drop-newest" } as const;
    await state.enqueue("q", queueEntry("m1"), options);
    await state.enqueue("q", queueEntry("m2"), options);
    const result = await state.enqueue("q", queueEntry("m3"), options);
    assert.equal(result.depth, 2);
    assert.deepEqual(result.evicted.map(entryId), ["m3"], "drop-newest reports the refused entry");
    assert.deepEqual(await drain(() => state.dequeue("q")), ["m1", "m2"]);
  },

  "should handle maxSize of 1 (debounce behavior)": async ({ state }) => {
    const options = { maxSize: 1, onFull: "drop-oldest" } as const;
    for (const id of ["m1", "m2", "m3"]) await state.enqueue("q", queueEntry(id), options);
    assert.equal(await state.queueDepth("q"), 1);
    assert.equal(entryId(await state.dequeue("q")), "m3");
  },

  "should keep queues isolated by thread": async ({ state }) => {
    await state.enqueue("thread:a", queueEntry("a1"), DROP_OLDEST);
    await state.enqueue("thread:b", queueEntry("b1"), DROP_OLDEST);
    assert.equal(entryId(await state.dequeue("thread:a")), "a1");
    assert.equal(await state.dequeue("thread:a"), null);
    assert.equal(await state.queueDepth("thread:b"), 1);
  },

  "returns entries whose expiresAt has passed, for the consumer to record": async ({ state }) => {
    const past: QueueEntry = { value: { id: "old" }, enqueuedAt: 1_000, expiresAt: 2_000 };
    await state.enqueue("q", past, DROP_OLDEST);
    assert.deepEqual(await state.dequeue("q"), past);
  },

  "concurrent drop-oldest enqueues keep maxSize and account for every entry once": async (ctx) => {
    const options = { maxSize: 5, onFull: "drop-oldest" } as const;
    const results = await concurrently(30, (i) =>
      ctx.client(i).enqueue("q", queueEntry(i), options),
    );
    const evicted = results.flatMap((result) => result.evicted.map(entryId));
    assert.ok(results.every((result) => result.depth >= 1 && result.depth <= 5));
    assert.equal(await ctx.state.queueDepth("q"), 5);
    const queued = await drain(() => ctx.state.dequeue("q"));
    const all = [...queued, ...evicted].sort((a, b) => Number(a) - Number(b));
    assert.deepEqual(
      all,
      Array.from({ length: 30 }, (_, i) => i),
    );
  },

  "concurrent drop-newest enqueues keep maxSize and refuse every other entry": async (ctx) => {
    const options = { maxSize: 5, onFull: "drop-newest" } as const;
    const results = await concurrently(30, (i) =>
      ctx.client(i).enqueue("q", queueEntry(i), options),
    );
    const refused = results.flatMap((result) => result.evicted.map(entryId));
    assert.equal(refused.length, 25);
    const queued = await drain(() => ctx.state.dequeue("q"));
    assert.equal(queued.length, 5);
    const all = [...queued, ...refused].sort((a, b) => Number(a) - Number(b));
    assert.deepEqual(
      all,
      Array.from({ length: 30 }, (_, i) => i),
    );
  },

  "concurrent dequeues hand out each entry exactly once": async (ctx) => {
    for (let i = 0; i < 12; i += 1) await ctx.state.enqueue("q", queueEntry(i), DROP_OLDEST);
    const taken = await concurrently(24, (i) => ctx.client(i).dequeue("q"));
    const ids = taken.filter((entry) => entry !== null).map(entryId);
    assert.equal(ids.length, 10, "maxSize 10 kept the newest ten");
    assert.equal(new Set(ids).size, ids.length);
  },

  "returns copies: mutating a dequeued entry's value does not matter to others": async ({
    state,
  }) => {
    const entry = queueEntry("m1");
    await state.enqueue("q", entry, DROP_OLDEST);
    (entry.value as { id: string }).id = "mutated";
    assert.equal(entryId(await state.dequeue("q")), "m1");
  },

  "pendingQueueKeys lists exactly the queues that hold entries": async ({ state }) => {
    await state.enqueue("thread:a", queueEntry("a1"), DROP_OLDEST);
    await state.enqueue("thread:b", queueEntry("b1"), DROP_OLDEST);
    await state.enqueue("thread:c", queueEntry("c1"), DROP_OLDEST);
    await state.dequeue("thread:b");
    assert.deepEqual((await state.pendingQueueKeys()).sort(), ["thread:a", "thread:c"]);
    await state.dequeue("thread:a");
    await state.dequeue("thread:c");
    assert.deepEqual(await state.pendingQueueKeys(), []);
  },

  "pendingQueueKeys returns at most limit keys": async ({ state }) => {
    for (const key of ["q1", "q2", "q3", "q4"]) {
      await state.enqueue(key, queueEntry(key), DROP_OLDEST);
    }
    const some = await state.pendingQueueKeys(2);
    assert.equal(some.length, 2);
    assert.ok(some.every((key) => ["q1", "q2", "q3", "q4"].includes(key)));
  },

  "rejects enqueue options that make no sense, writing nothing": async ({ state }) => {
    await assertRejectsWithCode(
      state.enqueue("q", queueEntry(1), { maxSize: 0, onFull: "drop-oldest" }),
      "VALIDATION_FAILED",
      "maxSize 0",
    );
    await assertRejectsWithCode(
      state.enqueue("q", queueEntry(1), { maxSize: 3, onFull: "drop-all" as "drop-oldest" }),
      "VALIDATION_FAILED",
      "unknown onFull",
    );
    assert.equal(await state.queueDepth("q"), 0);
  },
});
