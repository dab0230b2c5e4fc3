import { sleep } from "@baton/core";
import { createFakeClock } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { TurnGate } from "../../src/coordination/turn-gate.js";
import { overlaps, SLACK_T1, timeline, within } from "./gate-scenarios.js";

function setup() {
  const clock = createFakeClock();
  return { clock, gate: new TurnGate<string>(clock), line: timeline(clock) };
}

describe("turn gate: scopes, nesting and waiting", () => {
  it("makes an adapter-wide action wait for every tenant of the adapter, and 'all' for every adapter", async () => {
    const { clock, gate, line } = setup();
    void gate.runTurn({ adapter: "slack", tenant: "T2" }, line.step("slack T2", 100));
    void gate.runTurn({ adapter: "slack" }, line.step("slack adapter-wide", 150));
    void gate.runTurn({ adapter: "teams", tenant: "T1" }, line.step("teams T1", 300));
    await clock.settle();
    void gate.withExclusive({ adapter: "slack" }, line.step("slack action", 10));
    void gate.withExclusive("all", line.step("global action", 10));
    await clock.advance(1_000);
    expect(line.at("slack action start")).toBe(150);
    expect(line.at("global action start")).toBe(300);
    expect(gate.idle).toBe(true);
  });

  it("lets a tenant's action run beside turns without a tenant, but not beside its adapter-wide action", async () => {
    const { clock, gate, line } = setup();
    void gate.runTurn({ adapter: "slack" }, line.step("adapter-wide turn", 100));
    void gate.withExclusive({ adapter: "slack" }, line.step("adapter action", 50));
    await clock.settle();
    void gate.withExclusive(SLACK_T1, line.step("tenant action", 10));
    await clock.advance(1_000);
    expect(line.at("adapter action start")).toBe(100);
    expect(line.at("tenant action start")).toBe(150);
  });

  it("closes the gate to new turns while an exclusive action waits", async () => {
    const { clock, gate, line } = setup();
    void gate.runTurn(SLACK_T1, line.step("first turn", 100));
    await clock.settle();
    void gate.withExclusive(SLACK_T1, line.step("action", 10));
    await clock.advance(20);
    expect(gate.isClosed(SLACK_T1)).toBe(true);
    void gate.runTurn(SLACK_T1, line.step("late turn", 10));
    await clock.advance(1_000);
    expect(line.at("action start")).toBe(100);
    expect(line.at("late turn start")).toBe(110);
  });

  it("admits a turn nested in a running turn while an action waits, instead of deadlocking", async () => {
    const { clock, gate, line } = setup();
    const outer = gate.runTurn(SLACK_T1, async () => {
      await sleep(clock, 50);
      return gate.runTurn(SLACK_T1, () => "nested ran");
    });
    await clock.settle();
    void gate.withExclusive(SLACK_T1, line.step("action", 10));
    expect(await within(clock, outer, 1_000)).toEqual({ settled: true, value: "nested ran" });
    expect(line.at("action start")).toBe(50);
    expect(gate.idle).toBe(true);
  });

  it("runs an exclusive action nested in one that covers it inline, and widens a narrower one", async () => {
    const { clock, gate } = setup();
    const inline = gate.withExclusive({ adapter: "slack" }, () =>
      gate.withExclusive(SLACK_T1, () => "inline"),
    );
    expect(await within(clock, inline, 100)).toEqual({ settled: true, value: "inline" });
    const widened = gate.withExclusive(SLACK_T1, () => gate.withExclusive("all", () => "widened"));
    expect(await within(clock, widened, 100)).toEqual({ settled: true, value: "widened" });
    expect(gate.idle).toBe(true);
  });

  it("serializes concurrent upgrades of one turn at two levels without deadlock", async () => {
    const { clock, gate, line } = setup();
    void gate.runTurn({ adapter: "slack", tenant: "T2" }, line.step("other tenant", 30));
    const turn = gate.runTurn(SLACK_T1, async () => {
      await Promise.all([
        gate.withExclusive(SLACK_T1, line.step("tenant action", 20)),
        gate.withExclusive({ adapter: "slack" }, line.step("adapter action", 20)),
      ]);
      return gate.activeTurns(SLACK_T1);
    });
    const done = await within(clock, turn, 1_000);
    expect(done).toEqual({ settled: true, value: 1 }); // the turn counted again after both
    expect(overlaps(line, "tenant action", "adapter action")).toBe(false);
    expect(line.at("adapter action start")).toBeGreaterThanOrEqual(30);
    expect(gate.idle).toBe(true);
  });

  it("answers upgrade-conflict when a tenant's action holds part of the adapter-wide gate", async () => {
    const { clock, gate } = setup();
    let ran = false;
    const turn = gate.runTurn({ adapter: "slack" }, async () => {
      await sleep(clock, 10);
      return gate.tryWithExclusive({ adapter: "slack" }, { deadline: 500 }, () => {
        ran = true;
      });
    });
    await clock.settle();
    void gate.withExclusive(SLACK_T1, () => sleep(clock, 100));
    const answer = await within(clock, turn, 1_000);
    expect(answer).toEqual({
      settled: true,
      value: { acquired: false, reason: "upgrade-conflict" },
    });
    expect(ran).toBe(false);
  });

  it("with deadline 0 runs the action only when the gate is free at once", async () => {
    const { clock, gate } = setup();
    const free = await gate.tryWithExclusive(SLACK_T1, { deadline: 0 }, () => "free");
    expect(free).toEqual({ acquired: true, value: "free" });
    void gate.runTurn(SLACK_T1, () => sleep(clock, 100));
    await clock.settle();
    let ran = false;
    const busy = await gate.tryWithExclusive(SLACK_T1, { deadline: 0 }, () => {
      ran = true;
    });
    expect(busy).toEqual({ acquired: false, reason: "timeout" });
    await clock.advance(200);
    expect(ran).toBe(false);
    expect(gate.idle).toBe(true);
  });

  it("gives back a timed-out upgrade's turn before an action queued behind it can start", async () => {
    const { clock, gate, line } = setup();
    void gate.runTurn(SLACK_T1, line.step("other turn", 300));
    const turn = gate.runTurn(SLACK_T1, async () => {
      const attempt = await gate.tryWithExclusive(SLACK_T1, { deadline: 100 }, () => "no");
      await line.step("rest of turn", 400)();
      return attempt;
    });
    await clock.settle();
    void gate.withExclusive(SLACK_T1, line.step("queued action", 10));
    await clock.advance(2_000);
    expect(await turn).toEqual({ acquired: false, reason: "timeout" });
    expect(line.at("queued action start")).toBe(line.at("rest of turn end"));
    expect(gate.idle).toBe(true);
  });

  it("stops a turn waiting at a closed gate when its signal aborts, taking nothing", async () => {
    const { clock, gate } = setup();
    void gate.withExclusive(SLACK_T1, () => sleep(clock, 100));
    await clock.settle();
    const stop = new AbortController();
    let ran = false;
    const turn = gate.runTurn(
      SLACK_T1,
      () => {
        ran = true;
      },
      { signal: stop.signal },
    );
    await clock.advance(10);
    stop.abort(new Error("shutting down"));
    await expect(turn).rejects.toThrow("shutting down");
    await clock.advance(200);
    expect(ran).toBe(false);
    expect(gate.idle).toBe(true);
  });

  it("finds the tag of the running turn, and none in detached work or after the turn", async () => {
    const { clock, gate } = setup();
    const seen: Array<string | undefined> = [];
    const any = () => true;
    await gate.runTurn(
      SLACK_T1,
      async () => {
        seen.push(gate.findTag(any));
        seen.push(await gate.runDetached(() => gate.findTag(any)));
        void (async () => {
          await sleep(clock, 10);
          seen.push(gate.findTag(any));
        })();
      },
      { tag: "run 1" },
    );
    await clock.advance(20);
    expect(seen).toEqual(["run 1", undefined, undefined]);
  });

  it("refuses a bad scope or deadline with a ValidationError", async () => {
    const { gate } = setup();
    await expect(gate.withExclusive({ adapter: "" }, () => 1)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(gate.runTurn({ adapter: "slack", tenant: "" }, () => 1)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(gate.tryWithExclusive(SLACK_T1, { deadline: -1 }, () => 1)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(gate.idle).toBe(true);
  });
});
