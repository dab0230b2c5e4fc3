import { describe, expect, it } from "vitest";
import { DISPATCH_OUTCOMES, type DispatchOutcome } from "../src/index.js";

// Keyed by the type, so adding an outcome to the union without listing it here fails `tsc`.
const DESIGN_OUTCOMES: Record<DispatchOutcome, true> = {
  handled: true,
  skipped: true,
  "dropped-lock-conflict": true,
  duplicate: true,
  ignored: true,
  error: true,
  preempted: true,
  abandoned: true,
  "admission-rejected": true,
  expired: true,
  "handed-off": true,
};

describe("DISPATCH_OUTCOMES", () => {
  it("holds exactly the eleven outcomes of DESIGN §8, ADR 0011 and durable turns, each once", () => {
    expect(DISPATCH_OUTCOMES).toHaveLength(11);
    expect(new Set(DISPATCH_OUTCOMES).size).toBe(11);
    expect([...DISPATCH_OUTCOMES].sort()).toEqual(Object.keys(DESIGN_OUTCOMES).sort());
  });
});
