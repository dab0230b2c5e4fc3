import { createMemoryState } from "@baton/state-memory";
import { createMockAdapter } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/clock/index.js";
import { ConsoleLogger, type Logger, silentLogger } from "../../src/contracts/logger.js";
import { ConfigError } from "../../src/errors/index.js";
import {
  type ChatConfig,
  DEFAULT_CONCURRENCY,
  DEFAULT_DEDUPE_TTL_MS,
  resolveChatConfig,
} from "../../src/runtime/chat-config.js";

/** A valid config, with `overrides` applied (a value of `undefined` removes the key). */
function configWith(overrides: Record<string, unknown> = {}): ChatConfig {
  const config: Record<string, unknown> = {
    userName: "bot",
    adapters: { mock: createMockAdapter("mock") },
    state: createMemoryState(),
    ...overrides,
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete config[key];
  }
  return config as unknown as ChatConfig;
}

/** The problems of the `ConfigError` that resolving `config` throws. */
function problemsOf(config: unknown): readonly string[] {
  let thrown: unknown;
  try {
    resolveChatConfig(config as ChatConfig);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return (thrown as ConfigError).problems;
}

describe("resolveChatConfig defaults", () => {
  it("fills every default when only the required options are given", () => {
    const state = createMemoryState();
    const adapter = createMockAdapter("mock");
    const resolved = resolveChatConfig({ userName: "bot", adapters: { mock: adapter }, state });

    expect(resolved.userName).toBe("bot");
    expect(resolved.adapters).toEqual({ mock: adapter });
    expect(resolved.adapters.mock).toBe(adapter);
    expect(resolved.state).toBe(state);
    expect(resolved.concurrency).toEqual({
      strategy: "drop",
      lockTtlMs: 30_000,
      debounceMs: 1_500,
      maxWaitMs: 15_000,
      maxQueueSize: 10,
      onQueueFull: "drop-oldest",
      queueEntryTtlMs: 90_000,
      maxConcurrent: Number.POSITIVE_INFINITY,
      maxLockLifetimeMs: 600_000,
      extendTimeoutMs: 10_000,
      sweepIntervalMs: 30_000,
    });
    expect(resolved.lockScope).toBeUndefined();
    expect(resolved.dedupeTtlMs).toBe(600_000);
    expect(resolved.dispatch).toBe("deferred");
    expect(resolved.logger).toBeInstanceOf(ConsoleLogger);
    expect(resolved.observer).toEqual({});
    expect(resolved.clock).toBe(systemClock);
    expect(resolved.onLockConflict).toBe("drop");
    expect(resolved.durableTurns).toEqual({ maxAttempts: 3 });
    expect(resolved.warnings).toEqual([]);
  });

  it("exports the concurrency defaults and the ten-minute dedupe TTL, frozen", () => {
    expect(DEFAULT_CONCURRENCY).toEqual(resolveChatConfig(configWith()).concurrency);
    expect(Object.isFrozen(DEFAULT_CONCURRENCY)).toBe(true);
    expect(DEFAULT_DEDUPE_TTL_MS).toBe(10 * 60 * 1000);
  });

  it("returns a frozen config whose adapters record and warnings are frozen too", () => {
    const resolved = resolveChatConfig(
      configWith({ concurrency: { strategy: "queue", maxConcurrent: 2 } }),
    );
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(Object.isFrozen(resolved.concurrency)).toBe(true);
    expect(Object.isFrozen(resolved.adapters)).toBe(true);
    expect(Object.isFrozen(resolved.warnings)).toBe(true);
    expect(Object.isFrozen(resolved.adapters.mock)).toBe(false);
  });

  it('accepts the string form concurrency: "queue" with every other default', () => {
    const resolved = resolveChatConfig(configWith({ concurrency: "queue" }));
    expect(resolved.concurrency).toEqual({ ...DEFAULT_CONCURRENCY, strategy: "queue" });
  });

  it("derives maxWaitMs, extendTimeoutMs and sweepIntervalMs from the values they depend on", () => {
    const resolved = resolveChatConfig(
      configWith({ concurrency: { strategy: "debounce", debounceMs: 2_000, lockTtlMs: 9_000 } }),
    );
    expect(resolved.concurrency).toMatchObject({
      strategy: "debounce",
      debounceMs: 2_000,
      maxWaitMs: 20_000,
      lockTtlMs: 9_000,
      extendTimeoutMs: 3_000,
      sweepIntervalMs: 9_000,
    });
  });

  it("keeps every value that is given", () => {
    const options = {
      strategy: "concurrent",
      lockTtlMs: 12_000,
      debounceMs: 100,
      maxWaitMs: 400,
      maxQueueSize: 3,
      onQueueFull: "drop-newest",
      queueEntryTtlMs: 5_000,
      maxConcurrent: 4,
      maxLockLifetimeMs: 60_000,
      extendTimeoutMs: 2_000,
      sweepIntervalMs: 7_000,
    } as const;
    const resolved = resolveChatConfig(configWith({ concurrency: options, dedupeTtlMs: 1_000 }));
    expect(resolved.concurrency).toEqual(options);
    expect(resolved.dedupeTtlMs).toBe(1_000);
  });

  it("turns a log level into a console logger and keeps a given logger", () => {
    expect(resolveChatConfig(configWith({ logger: "silent" })).logger).toBeInstanceOf(
      ConsoleLogger,
    );
    const logger: Logger = { ...silentLogger };
    expect(resolveChatConfig(configWith({ logger })).logger).toBe(logger);
  });

  it("keeps a lock scope, a resolver, a lock-conflict callback and the sync dispatch mode", () => {
    const resolver = () => "channel" as const;
    const onLockConflict = () => "drop" as const;
    const resolved = resolveChatConfig(
      configWith({ lockScope: resolver, onLockConflict, dispatch: "sync" }),
    );
    expect(resolved.lockScope).toBe(resolver);
    expect(resolved.onLockConflict).toBe(onLockConflict);
    expect(resolved.dispatch).toBe("sync");
    expect(resolveChatConfig(configWith({ lockScope: "channel" })).lockScope).toBe("channel");
  });
});

describe("resolveChatConfig problems", () => {
  // What an upstream state adapter looks like to the check: Baton's atomic operations missing.
  const withoutMergeObject = () =>
    Object.assign(Object.create(createMemoryState()), { mergeObject: undefined, claim: undefined });

  it.each([
    ["a missing userName", { userName: undefined }, "userName: must be a non-empty string"],
    [
      "an empty userName",
      { userName: "" },
      'userName: must be a non-empty string (the bot\'s handle), got ""',
    ],
    ["missing adapters", { adapters: undefined }, "adapters: must be an object of adapters"],
    ["an empty adapters record", { adapters: {} }, "adapters: must hold at least one adapter"],
    [
      "an adapter under another adapter's name",
      { adapters: { slack: createMockAdapter("teams") } },
      'adapters.slack: key must equal the adapter\'s name "teams"',
    ],
    [
      "an adapter without required methods",
      { adapters: { mock: { name: "mock", userName: "bot", initialize: async () => {} } } },
      "adapters.mock: the adapter is missing handleWebhook, encodeThreadId",
    ],
    ["a missing state", { state: undefined }, "state: required; pass a Baton State backend"],
    [
      "a state that is not an object",
      { state: "redis" },
      'state: must be a State backend object, got "redis"',
    ],
    [
      "a state without Baton's atomic operations",
      { state: withoutMergeObject() },
      "state: not a Baton State backend: missing mergeObject and claim",
    ],
    [
      "an unknown strategy",
      { concurrency: { strategy: "fifo" } },
      'concurrency.strategy: unknown strategy "fifo" (use drop, queue, debounce, burst or concurrent)',
    ],
    [
      "an unknown strategy in the string form",
      { concurrency: "fifo" },
      'concurrency: unknown strategy "fifo" (use drop, queue, debounce, burst or concurrent)',
    ],
    ["a missing strategy", { concurrency: { debounceMs: 10 } }, "concurrency.strategy: required"],
    [
      "a maxConcurrent that is not an integer",
      { concurrency: { strategy: "concurrent", maxConcurrent: 2.5 } },
      "concurrency.maxConcurrent: must be an integer ≥ 1, or Infinity for no cap, got 2.5",
    ],
    [
      "a negative lockTtlMs",
      { concurrency: { strategy: "drop", lockTtlMs: -1 } },
      "concurrency.lockTtlMs: must be a positive, finite number of milliseconds, got -1",
    ],
    [
      "a zero debounceMs",
      { concurrency: { strategy: "debounce", debounceMs: 0 } },
      "concurrency.debounceMs: must be a positive, finite number of milliseconds, got 0",
    ],
    [
      "an infinite queueEntryTtlMs",
      { concurrency: { strategy: "queue", queueEntryTtlMs: Number.POSITIVE_INFINITY } },
      "concurrency.queueEntryTtlMs: must be a positive, finite number of milliseconds, got Infinity",
    ],
    [
      "a NaN maxLockLifetimeMs",
      { concurrency: { strategy: "queue", maxLockLifetimeMs: Number.NaN } },
      "concurrency.maxLockLifetimeMs: must be a positive, finite number of milliseconds, got NaN",
    ],
    [
      "a string sweepIntervalMs",
      { concurrency: { strategy: "queue", sweepIntervalMs: "1000" } },
      'concurrency.sweepIntervalMs: must be a positive, finite number of milliseconds, got "1000"',
    ],
    [
      "a negative dedupeTtlMs",
      { dedupeTtlMs: -5 },
      "dedupeTtlMs: must be a positive, finite number of milliseconds, got -5",
    ],
    [
      "a maxQueueSize that is not a positive integer",
      { concurrency: { strategy: "queue", maxQueueSize: 0 } },
      "concurrency.maxQueueSize: must be an integer ≥ 1, got 0",
    ],
    [
      "an unknown onQueueFull policy",
      { concurrency: { strategy: "queue", onQueueFull: "drop-random" } },
      'concurrency.onQueueFull: must be "drop-oldest" or "drop-newest", got "drop-random"',
    ],
    [
      "a maxWaitMs shorter than debounceMs",
      { concurrency: { strategy: "debounce", debounceMs: 2_000, maxWaitMs: 1_000 } },
      "concurrency.maxWaitMs: must be ≥ concurrency.debounceMs (2000)",
    ],
    [
      "an extendTimeoutMs as long as the lock TTL",
      { concurrency: { strategy: "queue", lockTtlMs: 5_000, extendTimeoutMs: 5_000 } },
      "concurrency.extendTimeoutMs: must be less than concurrency.lockTtlMs (5000)",
    ],
    [
      "an extendTimeoutMs longer than the default lock TTL",
      { concurrency: { strategy: "queue", extendTimeoutMs: 45_000 } },
      "concurrency.extendTimeoutMs: must be less than concurrency.lockTtlMs (30000)",
    ],
    [
      "an invalid lockScope",
      { lockScope: "workspace" },
      'lockScope: must be "thread", "channel" or a function (context) => scope, got "workspace"',
    ],
    [
      "an unknown log level",
      { logger: "verbose" },
      'logger: must be "debug", "info", "warn", "error" or "silent", got "verbose"',
    ],
    [
      "a logger without its methods",
      { logger: { info: () => {} } },
      "logger: not a Logger: missing debug, warn and error",
    ],
    [
      "an invalid dispatch mode",
      { dispatch: "eager" },
      'dispatch: must be "deferred" or "sync", got "eager"',
    ],
    [
      "an observer member that is not a function",
      { observer: { count: 3 } },
      "observer.count: must be a function when present, got 3",
    ],
    [
      "a clock without timers",
      { clock: { now: () => 0 } },
      "clock: not a Clock: missing setTimeout and clearTimeout",
    ],
    [
      "an unknown onLockConflict value",
      { onLockConflict: "wait" },
      'onLockConflict: must be "drop" or a function returning "drop", got "wait"',
    ],
    [
      "a misspelled top-level option",
      { concurency: "queue" },
      'unknown option "concurency" (did you mean "concurrency"?)',
    ],
    [
      "a misspelled concurrency option",
      { concurrency: { strategy: "debounce", debounceMS: 500 } },
      'concurrency: unknown option "debounceMS" (did you mean "debounceMs"?)',
    ],
    ["an option nothing resembles", { colour: "blue" }, 'unknown option "colour"'],
  ])("reports %s", (_what, overrides, expected) => {
    const problems = problemsOf(configWith(overrides));
    expect(problems).toEqual([expect.stringContaining(expected)]);
  });

  it("reports an adapter name with a colon, since thread ids are {name}:{…}", () => {
    const adapter = Object.assign(createMockAdapter("mock"), { name: "a:b" });
    const problems = problemsOf(configWith({ adapters: { "a:b": adapter } }));
    expect(problems).toEqual([
      'adapters.a:b: the adapter\'s name must not contain ":" (thread ids are "{name}:{…}")',
    ]);
  });

  it("reports an optional adapter member that is not a function, and a bad adapter lockScope", () => {
    const adapter = Object.assign(createMockAdapter("mock"), { isDM: true });
    Object.defineProperty(adapter, "lockScope", { value: "room" });
    expect(problemsOf(configWith({ adapters: { mock: adapter } }))).toEqual([
      "adapters.mock: isDM must be a function when present, got true",
      'adapters.mock: lockScope must be "thread" or "channel" when present, got "room"',
    ]);
  });

  it("reports every problem together in one ConfigError", () => {
    let thrown: unknown;
    try {
      resolveChatConfig({
        userName: "",
        adapters: { slack: createMockAdapter("teams") },
        state: undefined,
        concurrency: { strategy: "fifo", maxQueueSize: -1, lockTtlMs: 0 },
        dedupeTtlMs: 0,
        concurency: "queue",
      } as unknown as ChatConfig);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const error = thrown as ConfigError;
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.step).toBe("create chat");
    expect(error.problems).toHaveLength(8);
    expect(error.message).toMatch(/^create chat: invalid configuration \(8\):\n {2}- /);
    expect(error.problems).toContain('unknown option "concurency" (did you mean "concurrency"?)');
    for (const path of [
      "userName:",
      "adapters.slack:",
      "state:",
      "concurrency.strategy:",
      "concurrency.maxQueueSize:",
      "concurrency.lockTtlMs:",
      "dedupeTtlMs:",
    ]) {
      expect(error.problems.some((problem) => problem.startsWith(path))).toBe(true);
    }
  });

  it("does not compare against a default when the value it depends on is itself invalid", () => {
    const problems = problemsOf(
      configWith({ concurrency: { strategy: "queue", lockTtlMs: -1, extendTimeoutMs: 40_000 } }),
    );
    expect(problems).toEqual([expect.stringContaining("concurrency.lockTtlMs:")]);
  });

  it("refuses a config that is not an object", () => {
    expect(problemsOf(null)).toEqual(["config: must be an object, got null"]);
  });

  it('refuses onLockConflict: "force", explaining the risk and pointing to concurrency: "queue"', () => {
    const [problem] = problemsOf(configWith({ onLockConflict: "force" }));
    expect(problem).toMatch(/^onLockConflict: "force" is not supported/);
    expect(problem).toContain("two handlers would run on one thread at once");
    expect(problem).toContain('concurrency: "queue"');
    expect(problem).toContain("docs/adr/0005-no-force-lock-release.md");
  });

  it("allows maxConcurrent: Infinity", () => {
    const resolved = resolveChatConfig(
      configWith({
        concurrency: { strategy: "concurrent", maxConcurrent: Number.POSITIVE_INFINITY },
      }),
    );
    expect(resolved.concurrency.maxConcurrent).toBe(Number.POSITIVE_INFINITY);
    expect(resolved.warnings).toEqual([]);
  });
});

describe("Chat", () => {
  describe("concurrency: concurrent", () => {
    it("should throw when maxConcurrent is less than 1", () => {
      expect(() =>
        resolveChatConfig(
          configWith({ concurrency: { strategy: "concurrent", maxConcurrent: 0 } }),
        ),
      ).toThrow(ConfigError);
      expect(
        problemsOf(configWith({ concurrency: { strategy: "concurrent", maxConcurrent: 0 } })),
      ).toEqual([
        "concurrency.maxConcurrent: must be an integer ≥ 1, or Infinity for no cap, got 0",
      ]);
    });

    it("should warn when maxConcurrent is set with a non-concurrent strategy", () => {
      const resolved = resolveChatConfig(
        configWith({ concurrency: { strategy: "queue", maxConcurrent: 5 } }),
      );
      expect(resolved.warnings).toEqual([
        'concurrency.maxConcurrent: has no effect with strategy "queue"; it only applies to "concurrent"',
      ]);
      expect(resolved.concurrency.maxConcurrent).toBe(5);
    });
  });
});

describe("resolveChatConfig warnings", () => {
  it("warns that onLockConflict has no effect under a strategy other than drop", () => {
    const resolved = resolveChatConfig(
      configWith({ concurrency: "queue", onLockConflict: () => "drop" as const }),
    );
    expect(resolved.warnings).toEqual([
      'onLockConflict: has no effect with strategy "queue"; it only applies to "drop"',
    ]);
  });

  it("ignores upstream chat options Baton does not support yet, with a warning", () => {
    // A literal, so the type check proves an upstream user's config still compiles.
    const resolved = resolveChatConfig({
      userName: "bot",
      adapters: { mock: createMockAdapter("mock") },
      state: createMemoryState(),
      transcripts: {},
      identity: {},
    });
    expect(resolved.warnings).toEqual([
      "transcripts: an upstream chat option Baton does not support yet; ignored",
      "identity: an upstream chat option Baton does not support yet; ignored",
    ]);
    expect(resolved).not.toHaveProperty("transcripts");
  });

  it("takes upstream's streaming options as given, without a warning", () => {
    const resolved = resolveChatConfig({
      userName: "bot",
      adapters: { mock: createMockAdapter("mock") },
      state: createMemoryState(),
      streamingUpdateIntervalMs: 250,
      fallbackStreamingPlaceholderText: null,
    });
    expect(resolved.warnings).toEqual([]);
    expect(resolved.streamingUpdateIntervalMs).toBe(250);
    expect(resolved.fallbackStreamingPlaceholderText).toBeNull();
  });
});
