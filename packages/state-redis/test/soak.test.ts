import { type QueueEntry, silentLogger } from "@baton/core";
import { afterAll, expect, it } from "vitest";
import { createRedisState } from "../src/index.js";
import {
  connectRawClient,
  deleteKeysUnder,
  keysUnder,
  REDIS_URL,
  uniquePrefix,
} from "./redis-test-server.js";

// Throws at import when Redis is down: the file fails, it never skips.
const raw = await connectRawClient();
afterAll(() => raw.close());

const THREADS = 20;
const ROUND_TTL_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function entry(id: string): QueueEntry {
  const now = Date.now();
  return { value: { id }, enqueuedAt: now, expiresAt: now + 60_000 };
}

/**
 * What a bot does to the State per message, on a fixed set of threads: a dedupe mark per new
 * message, a lock acquired, extended and released (a fence record per thread), contenders queued
 * and drained, a claim per thread that lapses, is re-armed or completes, and a history list with a
 * TTL. New messages keep coming; threads do not.
 */
async function round(state: ReturnType<typeof createRedisState>, n: number): Promise<void> {
  await Promise.all(
    Array.from({ length: THREADS }, async (_, t) => {
      const thread = `thread:mock:C1:T${t}`;
      await state.setIfNotExists(`dedupe:mock:${n}:${t}`, true, ROUND_TTL_MS);
      const lock = await state.acquireLock(thread, ROUND_TTL_MS);
      await state.enqueue(thread, entry(`${n}`), { maxSize: 5, onFull: "drop-oldest" });
      if (lock) {
        await state.extendLock(lock, ROUND_TTL_MS);
        while (await state.dequeue(thread)) {}
        await state.releaseLock(lock);
      }
      const claim = await state.claim(`once:${thread}:${n % 3}`, ROUND_TTL_MS);
      if (claim && n % 3 === 0) await state.completeClaim(claim);
      if (claim && n % 3 === 1) await state.rearmClaim(claim);
      await state.appendToList(`history:${thread}`, n, { maxLength: 10, ttlMs: ROUND_TTL_MS * 5 });
    }),
  );
  await state.pendingQueueKeys();
}

it("keeps the number of keys flat over a soak of many messages on a fixed set of threads", async () => {
  const state = createRedisState({
    url: REDIS_URL,
    keyPrefix: uniquePrefix(),
    logger: silentLogger,
  });
  await state.connect();
  try {
    const counts: number[] = [];
    for (let n = 0; n < 40; n += 1) {
      await round(state, n);
      if (n % 10 === 9) {
        await sleep(ROUND_TTL_MS * 5 + 150); // let every TTL of the rounds so far run out
        counts.push((await keysUnder(raw, state.keyPrefix)).length);
      }
    }
    // Left per thread: its fence record and its one completed claim (of three claim names, one
    // completes, one is re-armed and one lapses; those two leave nothing). Dedupe marks, locks, queues, index
    // shards and lists are gone.
    const steady = THREADS * (1 + 1);
    expect(counts).toEqual([steady, steady, steady, steady]);
    const left = await keysUnder(raw, state.keyPrefix);
    expect(left.filter((key) => key.includes(":fence:"))).toHaveLength(THREADS);
  } finally {
    await deleteKeysUnder(raw, state.keyPrefix);
    await state.disconnect();
  }
}, 60_000);
