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
  "admission-rejected": true,
  expired: true,
  "handed-off": true,
};

describe("DISPATCH_OUTCOMES", () => {
  it("holds exactly the ten outcomes of DESIGN §8 and ADR 0011, each once", () => {
    expect(DISPATCH_OUTCOMES).toHaveLength(10);
    expect(new Set(DISPATCH_OUTCOMES).size).toBe(10);
    expect([...DISPATCH_OUTCOMES].sort()).toEqual(Object.keys(DESIGN_OUTCOMES).sort());
  });
});
