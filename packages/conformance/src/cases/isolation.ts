import assert from "node:assert/strict";
import { defineCases } from "../conformance-case.js";
import { queueEntry } from "./support.js";

export const isolationCases = defineCases("namespaces", {
  "a lock, a value, a list, a queue and a claim sharing one key do not touch each other": async ({
    state,
    longTtlMs,
  }) => {
    const key = "shared-name";
    await state.set(key, "value");
    const lock = await state.acquireLock(key, longTtlMs);
    await state.appendToList(key, "item");
    await state.enqueue(key, queueEntry("entry"), { maxSize: 3, onFull: "drop-oldest" });
    const claim = await state.claim(key, longTtlMs);
    await state.subscribe(key);
    assert.ok(lock && claim);
    assert.equal(await state.get(key), "value");
    assert.deepEqual(await state.getList(key), ["item"]);
    assert.equal(await state.queueDepth(key), 1);
    assert.equal(await state.releaseLock(lock), true);
    await state.delete(key);
    assert.deepEqual(await state.getList(key), ["item"]);
    assert.equal(await state.queueDepth(key), 1);
    assert.equal(await state.isSubscribed(key), true);
    assert.equal(await state.completeClaim(claim), true);
  },
});
