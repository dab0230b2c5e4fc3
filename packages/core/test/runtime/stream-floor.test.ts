import {
  createFakeClock,
  createMockAdapter,
  createTestState,
  type FakeClock,
} from "@baton/testing";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/clock/index.js";
import { ValidationError } from "../../src/errors/index.js";
import { StreamMessage } from "../../src/runtime/stream-message.js";
import { ThreadImpl, type ThreadOptions } from "../../src/runtime/thread.js";

const DM = "mock:D1:T1";
const GROUP = "mock:G1:T1";

/** A post + edit adapter whose floor is `floorMs(threadId)`; `undefined` declares none. */
async function setup(
  floorMs: ((threadId: string) => number) | undefined,
  options: Partial<ThreadOptions> = {},
) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, capabilities: { streaming: "edit" } });
  const asked: string[] = [];
  if (floorMs !== undefined) {
    (adapter as { minStreamingUpdateIntervalMs?: unknown }).minStreamingUpdateIntervalMs = (
      threadId: string,
    ) => {
      asked.push(threadId);
      return floorMs(threadId);
    };
  }
  const thread = (threadId: string) =>
    new ThreadImpl({
      adapter,
      state,
      threadId,
      ...options,
      streaming: { clock, ...options.streaming },
    });
  /** Edit start times, relative to the stream's first post. */
  const editTimes = () => {
    const posted = adapter.callsOf("postMessage")[0]?.at ?? Number.NaN;
    return adapter.callsOf("editMessage").map((call) => call.at - posted);
  };
  return { clock, adapter, thread, asked, editTimes };
}

/** "one " at once, "two " 1 200 ms later, "three" 100 ms after that: upstream's floor inputs. */
function upstreamChunks(clock: FakeClock) {
  return (async function* () {
    yield "one ";
    await sleep(clock, 1_200);
    yield "two ";
    await sleep(clock, 100);
    yield "three";
  })();
}

/** Tracks whether `promise` settled, for checks made while the clock stands still. */
function settled(promise: Promise<unknown>) {
  const state = { done: false };
  promise.then(
    () => {
      state.done = true;
    },
    () => {
      state.done = true;
    },
  );
  return state;
}

describe("the adapter's per-thread floor for post + edit streaming", () => {
  it("raises a shorter interval to the thread's floor and holds the final edit until it passed", async () => {
    const floors = (threadId: string) => (threadId === DM ? 1_000 : 3_000);
    const { adapter, clock, thread, asked, editTimes } = await setup(floors);
    // The stream asks for an edit every millisecond; the DM's floor is 1 s.
    const posting = thread(DM).post(
      new StreamMessage(upstreamChunks(clock), { updateIntervalMs: 1 }),
    );
    const done = settled(posting);
    // The stream ends at 1 300 ms; the intermediate edit went out at 1 000.
    await clock.advance(1_999);
    expect(editTimes()).toEqual([1_000]);
    expect(done.done).toBe(false);
    await clock.advance(1);
    const sent = await posting;
    expect(editTimes()).toEqual([1_000, 2_000]);
    expect(sent.text).toBe("one two three");
    expect(asked).toEqual([DM]);
    expect(adapter.callsOf("editMessage").at(-1)?.args[2]).toEqual({ markdown: "one two three" });
  });

  it("gives each thread its own floor: the same stream in a group edits only once, at 3 s", async () => {
    const floors = (threadId: string) => (threadId === DM ? 1_000 : 3_000);
    const { clock, thread, asked, editTimes } = await setup(floors);
    const posting = thread(GROUP).post(
      new StreamMessage(upstreamChunks(clock), { updateIntervalMs: 1 }),
    );
    const done = settled(posting);
    await clock.advance(2_999);
    expect(editTimes()).toEqual([]);
    expect(done.done).toBe(false);
    await clock.advance(1);
    await posting;
    expect(editTimes()).toEqual([3_000]);
    expect(asked).toEqual([GROUP]);
  });

  it("keeps a requested interval longer than the floor, and sends the final edit at once once the floor passed", async () => {
    const { clock, thread, editTimes } = await setup(() => 100, {
      streaming: { updateIntervalMs: 400 },
    });
    const posting = thread(DM).post(
      (async function* () {
        yield "a";
        await sleep(clock, 1_000);
        yield "b";
      })(),
    );
    await clock.advance(1_000);
    await posting;
    // Ticks every 400 ms (the 800 ms tick finds nothing new); the stream ends at 1 000.
    expect(editTimes()).toEqual([400, 1_000]);
  });

  it("paces the final edit from a refused intermediate edit too", async () => {
    const { adapter, clock, thread, editTimes } = await setup(() => 1_000);
    adapter.failNext("editMessage", new Error("Too Many Requests"));
    const posting = thread(DM).post(upstreamChunks(clock));
    await clock.advance(2_000);
    await posting;
    expect(editTimes()).toEqual([1_000, 2_000]);
    expect(adapter.callsOf("editMessage")[0]?.error).toEqual(new Error("Too Many Requests"));
  });

  it("leaves the default pace alone when the adapter declares no floor: the final edit follows the end at once", async () => {
    const { clock, thread, editTimes } = await setup(undefined);
    const posting = thread(DM).post(
      (async function* () {
        yield "a";
        await sleep(clock, 50);
        yield "b";
      })(),
    );
    await clock.advance(50);
    await posting;
    // The 500 ms default had not come round yet; only the final edit, at the stream's end.
    expect(editTimes()).toEqual([50]);
  });

  it("refuses a floor that is not a finite number ≥ 0, before anything is posted", async () => {
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      const { adapter, thread } = await setup(() => bad);
      const error = await thread(DM)
        .post(
          (async function* () {
            yield "never shown";
          })(),
        )
        .catch((caught: unknown) => caught);
      expect(error, String(bad)).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain("minStreamingUpdateIntervalMs");
      expect(adapter.callsOf("postMessage")).toHaveLength(0);
    }
  });
});
