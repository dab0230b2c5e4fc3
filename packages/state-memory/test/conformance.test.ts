import { describeStateAdapter } from "@baton/conformance";
import { createMemoryState, type MemoryState } from "../src/index.js";

let nowMs = Date.UTC(2026, 0, 1);
const clock = { now: () => nowMs };

describeStateAdapter("memory", {
  create: () => createMemoryState({ clock }),
  advanceTime: async (ms) => {
    nowMs += ms;
  },
  requires: ["turns"],
  storedClaimRecords: async (state) => {
    (state as MemoryState).purgeExpired();
    return (state as MemoryState).storedClaimCount();
  },
});
