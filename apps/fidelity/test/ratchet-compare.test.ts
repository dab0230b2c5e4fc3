import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baselineOf, compareWithBaseline, readBaseline, writeBaseline } from "../src/ratchet.js";
import { reportWith } from "./report-fixture.js";

const CHAT = "packages/chat/src/chat.test.ts";

describe("compareWithBaseline", () => {
  it("fails when a file's missing count rises, naming the file, both numbers and the titles", () => {
    const { failures, hints } = compareWithBaseline(reportWith({ [CHAT]: 3 }), {
      missing: { [CHAT]: 2 },
    });
    expect(hints).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain(`${CHAT}: 3 missing upstream titles, baseline 2 (+1).`);
    expect(failures[0]).toContain("- Chat › test 2");
  });

  it("passes when a count falls, with a hint to lower the baseline", () => {
    const { failures, hints } = compareWithBaseline(reportWith({ [CHAT]: 1 }), {
      missing: { [CHAT]: 2 },
    });
    expect(failures).toEqual([]);
    expect(hints).toEqual([
      `${CHAT}: 1 missing, baseline 2 — lower the baseline: \`pnpm --filter @baton/fidelity fidelity --update-baseline\``,
    ]);
  });

  it("passes silently at the baseline", () => {
    expect(compareWithBaseline(reportWith({ [CHAT]: 2 }), { missing: { [CHAT]: 2 } })).toEqual({
      failures: [],
      hints: [],
    });
  });

  it("fails for a mapped file without a baseline, and hints at files no longer mapped", () => {
    const { failures, hints } = compareWithBaseline(reportWith({ [CHAT]: 0 }), {
      missing: { "gone.test.ts": 4 },
    });
    expect(failures).toEqual([
      `${CHAT}: not in the fidelity baseline (0 missing); record it with \`pnpm --filter @baton/fidelity fidelity --update-baseline\``,
    ]);
    expect(hints).toEqual([
      "gone.test.ts: in the baseline but no longer mapped — `pnpm --filter @baton/fidelity fidelity --update-baseline` drops it",
    ]);
  });
});

describe("the baseline file", () => {
  it("round-trips the report's missing counts", () => {
    const path = join(mkdtempSync(join(tmpdir(), "fidelity-baseline-")), "baseline.json");
    writeBaseline(path, baselineOf(reportWith({ [CHAT]: 4, "b.test.ts": 0 })));
    expect(readBaseline(path)).toEqual({ missing: { [CHAT]: 4, "b.test.ts": 0 } });
    expect(readFileSync(path, "utf8")).toContain('"$comment"');
  });

  it("rejects a malformed baseline, naming the path", () => {
    const path = join(mkdtempSync(join(tmpdir(), "fidelity-baseline-")), "baseline.json");
    writeFileSync(path, JSON.stringify({ missing: { [CHAT]: -1 } }));
    expect(() => readBaseline(path)).toThrow(
      `fidelity baseline ${path}: "missing" must map files to counts`,
    );
    expect(() => readBaseline(`${path}.absent`)).toThrow(/read fidelity baseline .*absent/);
  });
});
