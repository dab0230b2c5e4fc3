import assert from "node:assert/strict";
import { defineCases } from "../conformance-case.js";
import { assertRejectsWithCode, queueEntry } from "./support.js";

export const lifecycleCases = defineCases("lifecycle", {
  "connect is idempotent and concurrent calls share one connection": async ({ state }) => {
    await Promise.all([state.connect(), state.connect(), state.connect()]);
    await state.connect();
    await state.set("after-connect", "ok");
    assert.equal(await state.get("after-connect"), "ok");
  },

  "rejects every kind of call after disconnect() with a StateError": async ({ state }) => {
    const lock = await state.acquireLock("lock", 60_000);
    assert.ok(lock);
    await state.disconnect();
    const calls: Array<[string, () => Promise<unknown>]> = [
      ["subscribe", () => state.subscribe("thread")],
      ["isSubscribed", () => state.isSubscribed("thread")],
      ["get", () => state.get("key")],
      ["set", () => state.set("key", 1)],
      ["setIfNotExists", () => state.setIfNotExists("key", 1)],
      ["delete", () => state.delete("key")],
      ["acquireLock", () => state.acquireLock("lock", 1_000)],
      ["extendLock", () => state.extendLock(lock, 1_000)],
      ["releaseLock", () => state.releaseLock(lock)],
      ["enqueue", () => state.enqueue("q", queueEntry(1), { maxSize: 1, onFull: "drop-oldest" })],
      ["dequeue", () => state.dequeue("q")],
      ["appendToList", () => state.appendToList("list", 1)],
      ["claim", () => state.claim("work", 1_000)],
    ];
    for (const [name, call] of calls) {
      await assertRejectsWithCode(call(), "STATE_DISCONNECTED", `${name} after disconnect`);
    }
  },

  "disconnect is idempotent": async ({ state }) => {
    await state.disconnect();
    await state.disconnect();
    await assertRejectsWithCode(state.get("key"), "STATE_DISCONNECTED", "get after disconnect");
  },

  "can connect again after disconnect": async ({ state }) => {
    await state.disconnect();
    await state.connect();
    await state.set("again", true);
    assert.equal(await state.get("again"), true);
  },
});

/** Cases that need a backend that was never connected; run with a fresh `create()`. */
export const unconnectedCases = defineCases(
  "lifecycle",
  {
    "should throw when not connected": async ({ state }) => {
      await assertRejectsWithCode(state.get("key"), "STATE_DISCONNECTED", "get before connect");
      await assertRejectsWithCode(
        state.acquireLock("lock", 1_000),
        "STATE_DISCONNECTED",
        "acquireLock before connect",
      );
    },
  },
  { startsDisconnected: true },
);
