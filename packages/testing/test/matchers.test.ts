import { beforeEach, describe, expect, it } from "vitest";
import { batonMatchers, createMockAdapter, type MockAdapter } from "../src/index.js";

expect.extend(batonMatchers);

const THREAD = "mock:C1:T1";
const OTHER = "mock:C1:T2";

function failureOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the assertion passed, but it was expected to fail");
}

describe("toHavePosted", () => {
  let adapter: MockAdapter;

  beforeEach(async () => {
    adapter = createMockAdapter();
    await adapter.postMessage(THREAD, "Hello there");
    await adapter.postMessage(OTHER, { markdown: "*second*" });
  });

  it("passes for exactly equal text, in any thread or in the given one", () => {
    expect(adapter).toHavePosted("Hello there");
    expect(adapter).toHavePosted("Hello there", THREAD);
    expect(adapter).toHavePosted("*second*", OTHER);
  });

  it("passes for a RegExp that matches a posted text", () => {
    expect(adapter).toHavePosted(/hello/i);
    expect(adapter).toHavePosted(/^\*sec/, OTHER);
    const sticky = /Hello/g;
    expect(adapter).toHavePosted(sticky);
    expect(adapter).toHavePosted(sticky);
  });

  it("does not treat a string as a substring pattern", () => {
    expect(adapter).not.toHavePosted("Hello");
  });

  it("fails when the text was posted to another thread, listing every post", () => {
    const message = failureOf(() => expect(adapter).toHavePosted("Hello there", OTHER));
    expect(message).toBe(
      'expected mock adapter "mock" to have posted "Hello there" to mock:C1:T2, but it posted:\n' +
        '  1. mock:C1:T1 "Hello there"\n' +
        '  2. mock:C1:T2 "*second*"',
    );
  });

  it("fails with (nothing) when nothing was posted", () => {
    const empty = createMockAdapter("quiet");
    const message = failureOf(() => expect(empty).toHavePosted(/anything/));
    expect(message).toBe(
      'expected mock adapter "quiet" to have posted text matching /anything/, but it posted:\n  (nothing)',
    );
  });

  it("fails under .not listing the posts that matched", () => {
    const message = failureOf(() => expect(adapter).not.toHavePosted(/e/));
    expect(message).toBe(
      'expected mock adapter "mock" not to have posted text matching /e/, but it did:\n' +
        '  1. mock:C1:T1 "Hello there"\n' +
        '  2. mock:C1:T2 "*second*"',
    );
  });

  it("does not count a post that failed", async () => {
    adapter.failNext("postMessage");
    await expect(adapter.postMessage(THREAD, "never arrived")).rejects.toThrow();
    expect(adapter).not.toHavePosted("never arrived");
  });

  it("counts the joined text of a finished stream", async () => {
    async function* chunks() {
      yield "stre";
      yield "amed";
    }
    await adapter.stream(THREAD, chunks());
    expect(adapter).toHavePosted("streamed", THREAD);
  });

  it("explains a received value that is not a mock adapter", () => {
    expect(() => expect({}).toHavePosted("x")).toThrow(
      "toHavePosted: expected a MockAdapter from @baton/testing, got Object",
    );
    expect(() => expect(null).toHavePosted("x")).toThrow(/got null/);
  });
});

describe("toHaveCalled", () => {
  let adapter: MockAdapter;

  beforeEach(async () => {
    adapter = createMockAdapter();
    await adapter.startTyping(THREAD);
    await adapter.postMessage(THREAD, "a");
    await adapter.postMessage(THREAD, "b");
  });

  it("passes when the method was called at least once, or exactly the given times", () => {
    expect(adapter).toHaveCalled("postMessage");
    expect(adapter).toHaveCalled("postMessage", 2);
    expect(adapter).toHaveCalled("startTyping", 1);
    expect(adapter).toHaveCalled("addReaction", 0);
    expect(adapter).not.toHaveCalled("addReaction");
    expect(adapter).not.toHaveCalled("postMessage", 3);
  });

  it("counts failed calls, since they were made", async () => {
    adapter.failNext("addReaction");
    await expect(adapter.addReaction(THREAD, "m", "x")).rejects.toThrow();
    expect(adapter).toHaveCalled("addReaction", 1);
  });

  it("fails with the actual count and every call listed", async () => {
    adapter.failNext("deleteMessage");
    await expect(adapter.deleteMessage(THREAD, "m9")).rejects.toThrow();
    const message = failureOf(() => expect(adapter).toHaveCalled("postMessage", 1));
    expect(message).toBe(
      'expected mock adapter "mock" to have called postMessage 1 time, but it was called 2 times. All calls:\n' +
        "  1. startTyping mock:C1:T1 []\n" +
        '  2. postMessage mock:C1:T1 ["a"]\n' +
        '  3. postMessage mock:C1:T1 ["b"]\n' +
        '  4. deleteMessage mock:C1:T1 ["m9"] (failed)',
    );
  });

  it("fails under .not naming the count", () => {
    const message = failureOf(() => expect(adapter).not.toHaveCalled("startTyping"));
    expect(message).toMatch(
      /^expected mock adapter "mock" not to have called startTyping, but it was called 1 time\. All calls:\n/,
    );
  });

  it("reports (no calls) for an adapter that made none", () => {
    const message = failureOf(() => expect(createMockAdapter()).toHaveCalled("openDM"));
    expect(message).toBe(
      'expected mock adapter "mock" to have called openDM, but it was called 0 times. All calls:\n  (no calls)',
    );
  });

  it("refuses an unknown method name or a bad count", () => {
    expect(() => expect(adapter).toHaveCalled("sendFax" as never)).toThrow(
      /toHaveCalled: unknown method "sendFax"; one of postMessage, editMessage/,
    );
    expect(() => expect(adapter).toHaveCalled("postMessage", -1)).toThrow(
      /times must be an integer ≥ 0/,
    );
  });
});
