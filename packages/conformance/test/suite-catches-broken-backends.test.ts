import { createMemoryState, type MemoryState } from "@baton/state-memory";
import { describe, expect, it } from "vitest";
import {
  runStateConformance,
  type StateConformanceHarness,
  stateConformanceCases,
} from "../src/index.js";
import {
  acquireOverInterruptedTurn,
  type Breakage,
  breakState,
  claimIgnoringGeneration,
  extendAlwaysTrue,
  fenceForgottenWithLock,
  fencePerKey,
  handBackEndingTurn,
  lifoDequeue,
  nonAtomicEnqueue,
  nonAtomicSetIfNotExists,
  nonAtomicTakeQueuedTurn,
  recoverOverLiveLock,
  releaseIgnoringToken,
  turnEndIgnoringFence,
  withoutTurns,
} from "./broken-backends.js";

// The memory backend reaches this package through the workspace root's devDependencies: listing
// it here would make a build cycle with state-memory, whose own tests run this suite.

function memoryHarness(breakage?: Breakage): StateConformanceHarness {
  let nowMs = Date.UTC(2026, 0, 1);
  const clock = { now: () => nowMs };
  return {
    create: () => {
      const state = createMemoryState({ clock });
      return breakage ? breakState(state, breakage) : state;
    },
    advanceTime: async (ms) => {
      nowMs += ms;
    },
    storedClaimRecords: async (state) => {
      (state as MemoryState).purgeExpired();
      return (state as MemoryState).storedClaimCount();
    },
  };
}

async function failingTitles(
  breakage?: Breakage,
  harness: Partial<StateConformanceHarness> = {},
): Promise<string[]> {
  const results = await runStateConformance({ ...memoryHarness(breakage), ...harness });
  return results.filter((result) => result.error !== undefined).map((result) => result.title);
}

/** The titles of every case about durable turn records. */
const turnCaseTitles = stateConformanceCases
  .filter((testCase) => testCase.group === "turn records" || testCase.group === "turn recovery")
  .map((testCase) => testCase.title);

describe("the State conformance suite", () => {
  it("passes the intact memory backend behind the same proxy the broken ones use", async () => {
    expect(await failingTitles((inner) => ({ name: inner.name }))).toEqual([]);
  });

  it("fails a backend whose release ignores the token", async () => {
    expect(await failingTitles(releaseIgnoringToken)).toEqual(
      expect.arrayContaining([
        "should not release a lock with wrong token",
        "a stale holder's extend and release return false and leave the new lock intact",
      ]),
    );
  });

  it("fails a backend whose extend always says true", async () => {
    expect(await failingTitles(extendAlwaysTrue)).toEqual(
      expect.arrayContaining([
        "only the token holder can extend; a forged extend leaves the expiry alone",
        "should not extend an expired lock",
        "a stale holder's extend and release return false and leave the new lock intact",
      ]),
    );
  });

  it("passes a backend whose fences count per key, since fences are ordered per lock key only", async () => {
    expect(await failingTitles(fencePerKey)).toEqual([]);
  });

  it("fails a backend whose fence starts over once the key's lock is gone", async () => {
    expect(await failingTitles(fenceForgottenWithLock)).toEqual(
      expect.arrayContaining([
        "fences strictly increase across acquire, expiry and re-acquire of one key",
        "fences of one key strictly increase across holders on different clients, release and force-release",
        "each key's fences increase on their own: other keys' acquires neither block nor reset them",
        "concurrent acquires of one key after each release hand out distinct, increasing fences",
      ]),
    );
  });

  it("fails a harness that cannot count stored claim records, rather than skipping the purge case", async () => {
    const { storedClaimRecords: _, ...withoutCount } = memoryHarness();
    const results = await runStateConformance(withoutCount);
    const failed = results.filter((result) => result.error !== undefined).map((r) => r.title);
    expect(failed).toEqual([
      "lapsed and re-armed claim records are purged, completed and live ones are kept",
    ]);
  });

  it("fails a backend whose enqueue checks and writes in separate steps", async () => {
    expect(await failingTitles(nonAtomicEnqueue)).toEqual(
      expect.arrayContaining([
        "concurrent drop-oldest enqueues keep maxSize and account for every entry once",
        "concurrent drop-newest enqueues keep maxSize and refuse every other entry",
      ]),
    );
  });

  it("fails a backend whose setIfNotExists reads before it writes", async () => {
    expect(await failingTitles(nonAtomicSetIfNotExists)).toEqual(
      expect.arrayContaining(["of many concurrent setIfNotExists calls exactly one wins"]),
    );
  });

  it("fails a backend whose claim transitions ignore the generation", async () => {
    expect(await failingTitles(claimIgnoringGeneration)).toEqual(
      expect.arrayContaining([
        "complete and re-arm fail closed on a stale generation",
        "a re-armed record can be claimed again, with a newer generation",
      ]),
    );
  });

  it("fails a backend whose queue is last-in first-out", async () => {
    expect(await failingTitles(lifoDequeue)).toEqual(
      expect.arrayContaining(["should dequeue in FIFO order"]),
    );
  });

  it("passes a backend without turn records when the harness does not require them", async () => {
    expect(await failingTitles(withoutTurns)).toEqual([]);
  });

  it("fails every turn case of a backend without turn records when the harness requires them", async () => {
    expect(turnCaseTitles.length).toBeGreaterThan(10);
    expect(await failingTitles(withoutTurns, { requires: ["turns"] })).toEqual(turnCaseTitles);
  });

  it("refuses a harness that requires a capability the suite does not know", async () => {
    const results = await runStateConformance(
      { ...memoryHarness(), requires: ["turn-records" as "turns"] },
      stateConformanceCases.slice(0, 1),
    );
    expect(String(results[0]?.error)).toMatch(/"turn-records", which is not an optional State/);
  });

  it("fails every turn case of a backend that offers only some of the turn methods", async () => {
    const partial: Breakage = () => ({ inspectTurn: undefined });
    expect(await failingTitles(partial)).toEqual(turnCaseTitles);
  });

  it("fails a backend whose end of a turn deletes a newer holder's record", async () => {
    expect(await failingTitles(turnEndIgnoringFence)).toEqual(
      expect.arrayContaining([
        "a stale holder's end or hand-back leaves a newer holder's turn record alone",
      ]),
    );
  });

  it("fails a backend whose hand-back ends the turn", async () => {
    expect(await failingTitles(handBackEndingTurn)).toEqual(
      expect.arrayContaining([
        "handing a turn back frees the lock and keeps the record, marked with the reason",
        "a hand-back after the lease lapsed still marks the turn's record",
        "recoverTurn of a handed-back turn reports why it was handed back and clears the mark",
      ]),
    );
  });

  it("fails a backend whose acquire with a turn runs over an interrupted turn", async () => {
    expect(await failingTitles(acquireOverInterruptedTurn)).toEqual(
      expect.arrayContaining([
        "acquireLock with a turn fails and writes nothing while an interrupted turn waits, and succeeds once that turn ended",
      ]),
    );
  });

  it("fails a backend whose recoverTurn takes a live lock, and so lets several callers win", async () => {
    expect(await failingTitles(recoverOverLiveLock)).toEqual(
      expect.arrayContaining([
        "recoverTurn returns null and changes nothing on a live lock or a key without a turn record",
        "of concurrent recoverTurn calls on every client exactly one gets the turn",
      ]),
    );
  });

  it("fails a backend whose takeQueuedTurn dequeues and writes the record in separate steps", async () => {
    expect(await failingTitles(nonAtomicTakeQueuedTurn)).toEqual(
      expect.arrayContaining([
        "takeQueuedTurn moves up to maxEntries of the oldest entries into a new turn record in one step",
        "takeQueuedTurn returns [] and changes nothing when the token does not hold the lock or the queue is empty",
      ]),
    );
  });
});
