import { sleep } from "@baton/core";
import type { FakeClock } from "@baton/testing";
import type { GateUnderTest, Installation } from "./naive-turn-gates.js";

/** The installation most scenarios use. */
export const SLACK_T1: Installation = { adapter: "slack", tenant: "T1" };

/**
 * How a piece of work ended within `limitMs` of fake time: `settled: false` means it was still
 * pending — for a gate, a deadlock (nothing else in these scenarios waits that long).
 */
export async function within<T>(
  clock: FakeClock,
  work: Promise<T>,
  limitMs: number,
): Promise<{ settled: true; value?: T; error?: unknown } | { settled: false }> {
  let outcome: { settled: true; value?: T; error?: unknown } | undefined;
  work.then(
    (value) => {
      outcome = { settled: true, value };
    },
    (error: unknown) => {
      outcome = { settled: true, error };
    },
  );
  await clock.advance(limitMs);
  return outcome ?? { settled: false };
}

/** A timeline of labelled events, with the fake time each happened at (ms since its creation). */
export function timeline(clock: FakeClock) {
  const startMs = clock.now();
  const events: string[] = [];
  const at = new Map<string, number>();
  return {
    events,
    mark(label: string) {
      events.push(label);
      at.set(label, clock.now() - startMs);
    },
    at(label: string): number | undefined {
      return at.get(label);
    },
    /** Work that marks `{name} start`, takes `ms` of fake time, then marks `{name} end`. */
    step(name: string, ms: number) {
      return async () => {
        events.push(`${name} start`);
        at.set(`${name} start`, clock.now() - startMs);
        await sleep(clock, ms);
        events.push(`${name} end`);
        at.set(`${name} end`, clock.now() - startMs);
        return name;
      };
    },
  };
}

/** True when the intervals `[a start, a end)` and `[b start, b end)` of a timeline overlap. */
export function overlaps(
  line: ReturnType<typeof timeline>,
  a: string,
  b: string,
): boolean | undefined {
  const [aStart, aEnd, bStart, bEnd] = [
    line.at(`${a} start`),
    line.at(`${a} end`),
    line.at(`${b} start`),
    line.at(`${b} end`),
  ];
  if (aStart === undefined || aEnd === undefined || bStart === undefined || bEnd === undefined) {
    return undefined;
  }
  return aStart < bEnd && bStart < aEnd;
}

/** Can the gate still run an exclusive action and a turn, each within `limitMs`? */
export async function gateStillWorks(
  gate: GateUnderTest,
  clock: FakeClock,
  scope: Installation = SLACK_T1,
  limitMs = 10_000,
): Promise<boolean> {
  const exclusive = await within(
    clock,
    gate.withExclusive(scope, () => "ok"),
    limitMs,
  );
  const turn = await within(
    clock,
    gate.runTurn(scope, () => "ok"),
    limitMs,
  );
  return exclusive.settled && turn.settled;
}
