import type { StateAdapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createMockAdapter } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors/index.js";
import { type ChatConfig, resolveChatConfig } from "../../src/runtime/chat-config.js";

function resolve(overrides: Record<string, unknown>, state: StateAdapter = createMemoryState()) {
  return resolveChatConfig({
    userName: "bot",
    adapters: { mock: createMockAdapter("mock") },
    state,
    ...overrides,
  } as unknown as ChatConfig);
}

function problemsOf(overrides: Record<string, unknown>, state?: StateAdapter): readonly string[] {
  try {
    resolve(overrides, state);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("the config was accepted");
}

/** A State with every capability but turn records, as a third-party backend may be. */
function stateWithoutTurnRecords(): StateAdapter {
  const state = createMemoryState();
  return new Proxy(state, {
    get: (target, property, receiver) =>
      property === "recoverTurn" ? undefined : Reflect.get(target, property, receiver),
  });
}

describe("durableTurns", () => {
  it("is on with three attempts by default when the State keeps turn records", () => {
    expect(resolve({}).durableTurns).toEqual({ maxAttempts: 3 });
  });

  it("takes maxAttempts from 1 to 100", () => {
    expect(resolve({ durableTurns: { maxAttempts: 1 } }).durableTurns).toEqual({ maxAttempts: 1 });
    expect(resolve({ durableTurns: {} }).durableTurns).toEqual({ maxAttempts: 3 });
    expect(resolve({ durableTurns: { maxAttempts: 100 } }).durableTurns).toEqual({
      maxAttempts: 100,
    });
  });

  it("is off with false", () => {
    expect(resolve({ durableTurns: false }).durableTurns).toBeNull();
  });

  it.each([
    [true, "durableTurns: must be false or an object { maxAttempts? }, got true"],
    ["on", 'durableTurns: must be false or an object { maxAttempts? }, got "on"'],
    [[], "durableTurns: must be false or an object { maxAttempts? }, got an array"],
    [{ maxAttempts: 0 }, "durableTurns.maxAttempts: must be an integer ≥ 1, got 0"],
    [{ maxAttempts: 2.5 }, "durableTurns.maxAttempts: must be an integer ≥ 1, got 2.5"],
    [{ maxAttempts: "3" }, 'durableTurns.maxAttempts: must be an integer ≥ 1, got "3"'],
  ])("refuses %j, naming the field", (value, problem) => {
    expect(problemsOf({ durableTurns: value })).toEqual([problem]);
  });

  it("refuses more than 100 attempts as a hidden poison turn", () => {
    expect(problemsOf({ durableTurns: { maxAttempts: 101 } })).toEqual([
      "durableTurns.maxAttempts: must be at most 100, got 101: a turn that fails that often is a poison turn",
    ]);
  });

  it("refuses an unknown key inside durableTurns", () => {
    expect(problemsOf({ durableTurns: { maxAtempts: 2 } })).toEqual([
      'durableTurns: unknown option "maxAtempts" (did you mean "maxAttempts"?)',
    ]);
  });

  it("refuses durable turns asked for on a State without turn records", () => {
    expect(problemsOf({ durableTurns: { maxAttempts: 2 } }, stateWithoutTurnRecords())).toEqual([
      'durableTurns: the State backend "memory" keeps no turn records (no recoverTurn); use @baton/state-memory, -redis or -pg, or set durableTurns: false',
    ]);
  });

  it("is off with a warning by default on a State without turn records, silent with false", () => {
    const state = stateWithoutTurnRecords();
    const resolved = resolve({}, state);
    expect(resolved.durableTurns).toBeNull();
    expect(resolved.warnings).toEqual([
      expect.stringMatching(/^durableTurns: the State backend "memory" keeps no turn records/),
    ]);
    expect(resolve({ durableTurns: false }, state).warnings).toEqual([]);
  });

  it("warns that durable turns do nothing under the concurrent strategy", () => {
    const resolved = resolve({ concurrency: "concurrent", durableTurns: { maxAttempts: 2 } });
    expect(resolved.warnings).toEqual([
      "durableTurns: has no effect under the concurrent strategy, which holds no lock",
    ]);
  });
});
