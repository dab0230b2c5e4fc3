import type { MatcherResult, MatcherState } from "vitest";
import type { MockAdapter } from "./mock-adapter.js";
import {
  describeCalls,
  isMockMethod,
  MOCK_METHODS,
  type MockCall,
  type MockMethod,
} from "./mock-call.js";

/** The matchers {@link batonMatchers} adds; `R` is vitest's return type. */
export interface BatonMatchers<R = unknown> {
  /**
   * Passes when the mock adapter posted (by `postMessage` or a finished `stream`) a text equal to
   * `expected`, or matching it when it is a RegExp — to `threadId` when given, else to any thread.
   */
  toHavePosted(expected: string | RegExp, threadId?: string): R;
  /**
   * Passes when the mock adapter's `method` was called (failed calls included) — exactly `times`
   * times when given, else at least once.
   */
  toHaveCalled(method: MockMethod, times?: number): R;
}

declare module "vitest" {
  // The type parameter must be declared exactly as vitest declares it (`T = any`).
  interface Matchers<T = any> extends BatonMatchers<T> {}
}

type MockAdapterLike = Pick<MockAdapter, "name" | "calls" | "posts" | "callsOf">;

/**
 * Matchers for a `MockAdapter`, for `expect.extend(batonMatchers)`. Importing this package also
 * types them on vitest's `expect`. Failure messages list what the adapter actually posted or
 * called.
 */
export const batonMatchers = {
  toHavePosted(
    this: MatcherState,
    received: unknown,
    expected: string | RegExp,
    threadId?: string,
  ): MatcherResult {
    const adapter = asMockAdapter(received, "toHavePosted");
    if (typeof expected !== "string" && !(expected instanceof RegExp)) {
      throw new TypeError("toHavePosted: expected text must be a string or a RegExp");
    }
    if (threadId !== undefined && typeof threadId !== "string") {
      throw new TypeError("toHavePosted: threadId must be a string when given");
    }
    const posts = adapter.posts.map((post, index) => ({ ...post, index }));
    const matches = posts.filter(
      (post) =>
        (threadId === undefined || post.threadId === threadId) &&
        (typeof expected === "string"
          ? post.text === expected
          : matchesRegExp(expected, post.text)),
    );
    const pass = matches.length > 0;
    const what = `${describeText(expected)}${threadId === undefined ? "" : ` to ${threadId}`}`;
    const list = (items: typeof posts) =>
      items.length === 0
        ? "  (nothing)"
        : items
            .map((post) => `  ${post.index + 1}. ${post.threadId} ${JSON.stringify(post.text)}`)
            .join("\n");
    return {
      pass,
      message: () =>
        pass
          ? `expected mock adapter "${adapter.name}" not to have posted ${what}, but it did:\n${list(matches)}`
          : `expected mock adapter "${adapter.name}" to have posted ${what}, but it posted:\n${list(posts)}`,
    };
  },

  toHaveCalled(
    this: MatcherState,
    received: unknown,
    method: MockMethod,
    times?: number,
  ): MatcherResult {
    const adapter = asMockAdapter(received, "toHaveCalled");
    if (!isMockMethod(method)) {
      throw new TypeError(
        `toHaveCalled: unknown method ${JSON.stringify(method)}; one of ${MOCK_METHODS.join(", ")}`,
      );
    }
    if (times !== undefined && (!Number.isInteger(times) || times < 0)) {
      throw new TypeError("toHaveCalled: times must be an integer ≥ 0 when given");
    }
    const count = adapter.callsOf(method).length;
    const pass = times === undefined ? count > 0 : count === times;
    const expectedCount = times === undefined ? "" : ` ${plural(times)}`;
    const calls: readonly MockCall[] = adapter.calls;
    return {
      pass,
      message: () =>
        `expected mock adapter "${adapter.name}" ${pass ? "not " : ""}to have called ${method}${expectedCount}, ` +
        `but it was called ${plural(count)}. All calls:\n${describeCalls(calls)}`,
    };
  },
};

function asMockAdapter(received: unknown, matcher: string): MockAdapterLike {
  const candidate = received as Partial<MockAdapterLike> | null | undefined;
  if (
    typeof candidate !== "object" ||
    candidate === null ||
    !Array.isArray(candidate.calls) ||
    !Array.isArray(candidate.posts) ||
    typeof candidate.callsOf !== "function"
  ) {
    throw new TypeError(
      `${matcher}: expected a MockAdapter from @baton/testing, got ${describeValue(received)}`,
    );
  }
  return candidate as MockAdapterLike;
}

function matchesRegExp(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text);
}

function describeText(expected: string | RegExp): string {
  return typeof expected === "string"
    ? JSON.stringify(expected)
    : `text matching ${String(expected)}`;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return value.constructor?.name ?? "an object";
  return typeof value;
}

function plural(count: number): string {
  return count === 1 ? "1 time" : `${count} times`;
}
