import { describeStateAdapter } from "@baton/conformance";
import { createMemoryState, type MemoryState } from "../src/index.js";

// The whole suite again with the fused fast paths offered: the fast-path cases then check
// acceptAndAcquire and releaseAndNext, and every other case shows the option changes nothing else.
let nowMs = Date.UTC(2026, 0, 1);
const clock = { now: () => nowMs };

describeStateAdapter("memory with fast paths", {
  create: () => createMemoryState({ clock, fastPaths: true }),
  advanceTime: async (ms) => {
    nowMs += ms;
  },
  requires: ["turns"],
  storedClaimRecords: async (state) => {
    (state as MemoryState).purgeExpired();
    return (state as MemoryState).storedClaimCount();
  },
});
