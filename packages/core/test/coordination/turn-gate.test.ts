import { sleep } from "@baton/core";
import { createFakeClock, type FakeClock } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { TurnGate } from "../../src/coordination/turn-gate.js";
import { gateStillWorks, overlaps, SLACK_T1, timeline, within } from "./gate-scenarios.js";
import { type GateUnderTest, type NaiveFlaw, NaiveTurnGate } from "./naive-turn-gates.js";

type Make = (clock: FakeClock) => GateUnderTest;
const real: Make = (clock) => new TurnGate(clock);
const naive =
  (flaw: NaiveFlaw): Make =>
  (clock) =>
    new NaiveTurnGate(clock, flaw);

/** Runs `scenario` on a fresh gate made by `make`, with its own fake clock. */
async function play<T>(
  make: Make,
  scenario: (gate: GateUnderTest, clock: FakeClock) => Promise<T>,
) {
  const clock = createFakeClock();
  const gate = make(clock);
  return { gate, clock, result: await scenario(gate, clock) };
}

async function twoActionsWhileTurnsRun(gate: GateUnderTest, clock: FakeClock) {
  const line = timeline(clock);
  const turns = [
    gate.runTurn(SLACK_T1, line.step("turn 1", 100)),
    gate.runTurn(SLACK_T1, line.step("turn 2", 150)),
  ];
  await clock.advance(10);
  const actions = [
    gate.withExclusive(SLACK_T1, line.step("A", 50)),
    gate.withExclusive(SLACK_T1, line.step("B", 50)),
  ];
  const all = await within(clock, Promise.all([...turns, ...actions]), 1_000);
  return { line, all };
}

async function upgradeWhileAnotherActionQueues(gate: GateUnderTest, clock: FakeClock) {
  const line = timeline(clock);
  const other = gate.runTurn(SLACK_T1, line.step("U", 30));
  const upgrading = gate.runTurn(SLACK_T1, async () => {
    line.mark("T start");
    await gate.withExclusive(SLACK_T1, line.step("A", 50));
    line.mark("T resumes");
    await sleep(clock, 100);
    line.mark("T end");
  });
  await clock.advance(40); // U ended at 30; A runs from 30 to 80
  const queued = gate.withExclusive(SLACK_T1, line.step("B", 10));
  const all = await within(clock, Promise.all([other, upgrading, queued]), 1_000);
  return { line, all };
}

async function concurrentUpgradesFromOneTurn(gate: GateUnderTest, clock: FakeClock) {
  const line = timeline(clock);
  const runs = { A: 0, B: 0 };
  const turn = gate.runTurn(SLACK_T1, async () => {
    await Promise.all([
      gate.withExclusive(SLACK_T1, async () => {
        runs.A += 1;
        await line.step("A", 50)();
      }),
      gate.withExclusive(SLACK_T1, async () => {
        runs.B += 1;
        await line.step("B", 50)();
      }),
    ]);
    line.mark("T after both");
  });
  const done = await within(clock, turn, 1_000);
  const works = done.settled && (await gateStillWorks(gate, clock));
  return { line, runs, done, works };
}

async function fireAndForgetUpgrade(gate: GateUnderTest, clock: FakeClock) {
  const line = timeline(clock);
  const turn = gate.runTurn(SLACK_T1, async () => {
    void gate.withExclusive(SLACK_T1, line.step("A", 100));
  });
  const turnEnded = await within(clock, turn, 1);
  await clock.advance(200); // the upgrade outlives its turn and ends here
  const later = await within(clock, gate.withExclusive(SLACK_T1, line.step("later", 10)), 10_000);
  return { line, turnEnded, later };
}

async function timedOutAttempt(gate: GateUnderTest, clock: FakeClock) {
  let ran = 0;
  const turn = gate.runTurn(SLACK_T1, () => sleep(clock, 500));
  await clock.settle();
  const attempt = await within(
    clock,
    gate.tryWithExclusive(SLACK_T1, { deadline: 100 }, () => {
      ran += 1;
    }),
    100,
  );
  await within(clock, turn, 1_000);
  await clock.advance(1_000);
  return { attempt, ran };
}

/** The turn ends (hand-off) at the very instant the deadline falls, in the order given. */
async function handOffRacesDeadline(
  gate: GateUnderTest,
  clock: FakeClock,
  first: "hand-off" | "deadline",
) {
  let ran = 0;
  let endTurn = () => {};
  const turn = gate.runTurn(SLACK_T1, () => new Promise<void>((resolve) => (endTurn = resolve)));
  await clock.settle();
  // Timers due at the same instant fire in scheduling order.
  if (first === "hand-off") clock.setTimeout(() => endTurn(), 100);
  const attempt = gate.tryWithExclusive(SLACK_T1, { deadline: 100 }, () => {
    ran += 1;
  });
  if (first === "deadline") clock.setTimeout(() => endTurn(), 100);
  const settled = await within(clock, attempt, 100);
  await within(clock, turn, 1_000);
  await clock.advance(1_000);
  return { settled, ran };
}

async function attemptWhileAnotherActionWaits(gate: GateUnderTest, clock: FakeClock) {
  let ran = 0;
  const turn = gate.runTurn(SLACK_T1, async () => {
    await sleep(clock, 10);
    const askedAt = clock.now();
    const attempt = await gate.tryWithExclusive(SLACK_T1, { deadline: 1_000 }, () => {
      ran += 1;
    });
    return { attempt, waitedMs: clock.now() - askedAt };
  });
  await clock.settle();
  const other = gate.withExclusive(SLACK_T1, () => "other ran");
  const answer = await within(clock, turn, 5_000);
  const otherRan = await within(clock, other, 5_000);
  return { answer, otherRan, ran };
}

async function actionsThatThrow(gate: GateUnderTest, clock: FakeClock) {
  const plain = await within(
    clock,
    gate.withExclusive(SLACK_T1, async () => {
      throw new Error("rotation failed");
    }),
    10,
  );
  const upgrade = await within(
    clock,
    gate.runTurn(SLACK_T1, async () => {
      await gate
        .withExclusive(SLACK_T1, async () => {
          throw new Error("re-initialization failed");
        })
        .catch(() => "caught");
    }),
    10,
  );
  return { plain, upgrade, works: await gateStillWorks(gate, clock) };
}

async function actionBesideOtherInstallations(gate: GateUnderTest, clock: FakeClock) {
  const line = timeline(clock);
  void gate.runTurn({ adapter: "slack", tenant: "T2" }, line.step("slack T2 turn", 500));
  void gate.runTurn({ adapter: "teams", tenant: "T1" }, line.step("teams T1 turn", 500));
  await clock.settle();
  const action = gate.withExclusive(SLACK_T1, line.step("slack T1 action", 10));
  await within(clock, action, 1_000);
  return { line };
}

async function workSpawnedByFinishedTurn(gate: GateUnderTest, clock: FakeClock) {
  const line = timeline(clock);
  const turn = gate.runTurn(SLACK_T1, async () => {
    // Spawned, not awaited: runs on after the turn returned, in the turn's async context.
    void (async () => {
      await sleep(clock, 100);
      await gate.withExclusive(SLACK_T1, line.step("A", 10));
    })();
  });
  await within(clock, turn, 1);
  void gate.runTurn(SLACK_T1, line.step("U", 300));
  await clock.advance(1_000);
  return { line, overlap: overlaps(line, "A", "U"), works: await gateStillWorks(gate, clock) };
}

async function detachedFromRunningTurn(gate: GateUnderTest, clock: FakeClock) {
  const line = timeline(clock);
  const turn = gate.runTurn(SLACK_T1, async () => {
    void gate.runDetached(() => gate.withExclusive(SLACK_T1, line.step("A", 10)));
    await line.step("T", 200)();
  });
  await within(clock, turn, 1_000);
  await clock.advance(1_000);
  return { line, overlap: overlaps(line, "A", "T") };
}

describe("turn gate (DESIGN §7.2)", () => {
  it("never overlaps two exclusive actions, and one started while turns run waits for them", async () => {
    const { result } = await play(real, twoActionsWhileTurnsRun);
    expect(result.all.settled).toBe(true);
    expect(result.line.at("A start")).toBeGreaterThanOrEqual(result.line.at("turn 2 end") ?? 0);
    expect(overlaps(result.line, "A", "B")).toBe(false);

    const flawed = await play(naive("no-exclusive-mutex"), twoActionsWhileTurnsRun);
    expect(overlaps(flawed.result.line, "A", "B")).toBe(true);
  });

  it("upgrades inside a turn: lends the turn, waits for the others, runs, and takes the turn back before reopening", async () => {
    const { result, gate } = await play(real, upgradeWhileAnotherActionQueues);
    expect(result.all.settled).toBe(true);
    const { line } = result;
    expect(line.at("A start")).toBe(line.at("U end"));
    // The action queued while A ran waits for the rest of the upgraded turn.
    expect(line.events).toEqual([
      "U start",
      "T start",
      "U end",
      "A start",
      "A end",
      "T resumes",
      "T end",
      "B start",
      "B end",
    ]);
    expect((gate as TurnGate).idle).toBe(true);

    const waitsForItself = await play(naive("no-upgrade"), upgradeWhileAnotherActionQueues);
    expect(waitsForItself.result.all.settled).toBe(false);
    const reopensFirst = await play(naive("reopen-then-reclaim"), upgradeWhileAnotherActionQueues);
    expect(reopensFirst.result.line.at("B start")).toBeLessThan(
      reopensFirst.result.line.at("T end") ?? Number.POSITIVE_INFINITY,
    );
  });

  it("runs two exclusive actions started concurrently from one turn exactly once each, one after the other, and the gate works afterwards", async () => {
    const { result, gate } = await play(real, concurrentUpgradesFromOneTurn);
    expect(result.done.settled).toBe(true);
    expect(result.runs).toEqual({ A: 1, B: 1 });
    expect(overlaps(result.line, "A", "B")).toBe(false);
    expect(result.works).toBe(true);
    expect((gate as TurnGate).idle).toBe(true);

    const snapshot = await play(naive("snapshot-upgrade"), concurrentUpgradesFromOneTurn);
    expect(snapshot.result.done.settled).toBe(false); // deadlock: B waits for its own turn
  });

  it("leaves no phantom turn when a fire-and-forget upgrade outlives its turn", async () => {
    const { result, gate } = await play(real, fireAndForgetUpgrade);
    expect(result.turnEnded.settled).toBe(true);
    expect(result.line.events).toEqual(["A start", "A end", "later start", "later end"]);
    expect(result.later.settled).toBe(true);
    expect((gate as TurnGate).idle).toBe(true);

    const phantom = await play(naive("reclaim-after-turn-ended"), fireAndForgetUpgrade);
    expect(phantom.result.later.settled).toBe(false); // starved by the phantom turn
  });

  it("never runs the action after tryWithExclusive answered acquired: false", async () => {
    const { result, gate } = await play(real, timedOutAttempt);
    expect(result.attempt).toEqual({
      settled: true,
      value: { acquired: false, reason: "timeout" },
    });
    expect(result.ran).toBe(0);
    expect((gate as TurnGate).idle).toBe(true);

    const raced = await play(naive("race-deadline"), timedOutAttempt);
    expect(raced.result.attempt).toMatchObject({ value: { acquired: false } });
    expect(raced.result.ran).toBe(1); // the forgotten wait ran it late
  });

  it("decides once when the hand-off and the deadline fall on the same instant, in either order", async () => {
    for (const first of ["hand-off", "deadline"] as const) {
      const { result, gate } = await play(real, (g, c) => handOffRacesDeadline(g, c, first));
      const attempt = result.settled.settled ? result.settled.value : undefined;
      expect(attempt?.acquired).toBe(first === "hand-off");
      expect(result.ran).toBe(attempt?.acquired ? 1 : 0);
      expect((gate as TurnGate).idle).toBe(true);
    }
    const raced = await play(naive("race-deadline"), (g, c) =>
      handOffRacesDeadline(g, c, "deadline"),
    );
    expect(raced.result.settled).toMatchObject({ value: { acquired: false } });
    expect(raced.result.ran).toBe(1);
  });

  it("answers upgrade-conflict at once when another exclusive action awaits the gate, and never runs the action", async () => {
    const { result } = await play(real, attemptWhileAnotherActionWaits);
    expect(result.answer).toEqual({
      settled: true,
      value: { attempt: { acquired: false, reason: "upgrade-conflict" }, waitedMs: 0 },
    });
    expect(result.otherRan).toEqual({ settled: true, value: "other ran" });
    expect(result.ran).toBe(0);

    const blind = await play(naive("no-upgrade"), attemptWhileAnotherActionWaits);
    expect(blind.result.answer).toMatchObject({ value: { attempt: { reason: "timeout" } } });
    expect(blind.result.answer).toMatchObject({ value: { waitedMs: 1_000 } });
  });

  it("reopens the gate fully when the action throws, also for an upgrade", async () => {
    const { result, gate } = await play(real, actionsThatThrow);
    expect(result.plain).toMatchObject({ settled: true, error: { message: "rotation failed" } });
    expect(result.upgrade.settled).toBe(true);
    expect(result.works).toBe(true);
    expect((gate as TurnGate).idle).toBe(true);

    const stuck = await play(naive("closed-after-throw"), actionsThatThrow);
    expect(stuck.result.works).toBe(false);
  });

  it("isolates installations: a tenant's action waits neither for another tenant nor for another adapter", async () => {
    const { result } = await play(real, actionBesideOtherInstallations);
    expect(result.line.at("slack T1 action start")).toBe(result.line.at("slack T2 turn start"));

    const shared = await play(naive("one-gate-for-all"), actionBesideOtherInstallations);
    expect(shared.result.line.at("slack T1 action start")).toBe(
      shared.result.line.at("slack T2 turn end"),
    );
  });

  it("does not let work spawned by a finished turn upgrade that turn", async () => {
    const { result, gate } = await play(real, workSpawnedByFinishedTurn);
    expect(result.line.at("A start")).toBe(result.line.at("U end"));
    expect(result.overlap).toBe(false);
    expect(result.works).toBe(true);
    expect((gate as TurnGate).idle).toBe(true);

    const inherits = await play(naive("inherit-ended-turn"), workSpawnedByFinishedTurn);
    expect(inherits.result.overlap).toBe(true);
  });

  it("runs detached work outside the current turn: an exclusive action there waits for the turn", async () => {
    const { result } = await play(real, detachedFromRunningTurn);
    expect(result.line.at("A start")).toBe(result.line.at("T end"));
    expect(result.overlap).toBe(false);

    const inherits = await play(naive("detach-inherits"), detachedFromRunningTurn);
    expect(inherits.result.overlap).toBe(true);
  });

  it("passes every scenario without tryWithExclusive on a naive gate without a flaw, so each failure above is its flaw's", async () => {
    const plain = naive("none");
    const actions = await play(plain, twoActionsWhileTurnsRun);
    expect(overlaps(actions.result.line, "A", "B")).toBe(false);
    const upgrade = await play(plain, upgradeWhileAnotherActionQueues);
    expect(upgrade.result.line.at("B start")).toBe(upgrade.result.line.at("T end"));
    expect((await play(plain, concurrentUpgradesFromOneTurn)).result.works).toBe(true);
    expect((await play(plain, fireAndForgetUpgrade)).result.later.settled).toBe(true);
    expect((await play(plain, actionsThatThrow)).result.works).toBe(true);
    const isolated = await play(plain, actionBesideOtherInstallations);
    const { line } = isolated.result;
    expect(line.at("slack T1 action start")).toBe(line.at("slack T2 turn start"));
    expect((await play(plain, workSpawnedByFinishedTurn)).result.overlap).toBe(false);
    expect((await play(plain, detachedFromRunningTurn)).result.overlap).toBe(false);
  });
});
