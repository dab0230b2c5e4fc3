import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandGlobs, globPattern } from "../src/glob.js";

describe("globPattern", () => {
  it("lets ** span any number of directories, also none, and * stay in one segment", () => {
    const pattern = globPattern("packages/core/test/chat/**/*.test.ts");
    expect(pattern.test("packages/core/test/chat/chat-routing.test.ts")).toBe(true);
    expect(pattern.test("packages/core/test/chat/deep/er/x.test.ts")).toBe(true);
    expect(pattern.test("packages/core/test/chatter/x.test.ts")).toBe(false);
    expect(globPattern("packages/*/test/*.ts").test("packages/a/b/test/x.ts")).toBe(false);
    expect(globPattern("a/*.{ts,tsx}").test("a/b.tsx")).toBe(true);
  });
});

describe("expandGlobs", () => {
  it("finds matching files sorted and once, skipping node_modules, and tolerates absent bases", () => {
    const root = mkdtempSync(join(tmpdir(), "fidelity-glob-"));
    for (const file of [
      "p/a/test/x.test.ts",
      "p/a/test/sub/y.test.ts",
      "p/a/node_modules/z.test.ts",
      "p/b/src/w.ts",
    ]) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), "");
    }
    expect(
      expandGlobs(root, ["p/*/test/**/*.test.ts", "p/a/test/x.test.ts", "p/missing/**/*.ts"]),
    ).toEqual(["p/a/test/sub/y.test.ts", "p/a/test/x.test.ts"]);
  });
});
