import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultManifest } from "../src/cli.js";
import { extractCheckout, loadManifest } from "../src/upstream-source.js";

describe("upstream titles", () => {
  it("resolves the default manifest next to the repository", () => {
    expect(defaultManifest("/work/main")).toBe(
      "/work/shared/upstream/vercel-chat-4.38.1.tests.json",
    );
  });

  it("loads a manifest and counts its tests", () => {
    const path = join(mkdtempSync(join(tmpdir(), "fidelity-manifest-")), "m.json");
    const tests = [{ describe: ["A"], title: "t %s", modifiers: ["each"] }];
    writeFileSync(
      path,
      JSON.stringify({ upstream: "chat 1.0", files: [{ file: "a.test.ts", count: 9, tests }] }),
    );
    expect(loadManifest(path, "m.json")).toEqual({
      source: "m.json (chat 1.0)",
      files: [{ file: "a.test.ts", count: 1, tests }],
    });
  });

  it("rejects a malformed manifest, naming the path", () => {
    const path = join(mkdtempSync(join(tmpdir(), "fidelity-manifest-")), "m.json");
    writeFileSync(path, JSON.stringify({ files: [{ file: "a.test.ts", tests: [{ title: 1 }] }] }));
    expect(() => loadManifest(path)).toThrow(
      `upstream manifest ${path}: a test of a.test.ts is malformed`,
    );
    writeFileSync(path, "{}");
    expect(() => loadManifest(path)).toThrow('expected a "files" array');
  });

  it("extracts every packages/**/*.test.ts(x) of a checkout, skipping node_modules", () => {
    const checkout = mkdtempSync(join(tmpdir(), "fidelity-checkout-"));
    const files: Record<string, string> = {
      "packages/chat/src/chat.test.ts":
        'describe("Chat", () => { it.each([1, 2])("case %i", () => {}); });',
      "packages/chat/src/jsx.test.tsx": 'it("renders", () => <div />);',
      "packages/chat/node_modules/x/y.test.ts": 'it("vendored", () => {});',
      "packages/chat/src/helper.ts": 'it("not a test file", () => {});',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(checkout, file)), { recursive: true });
      writeFileSync(join(checkout, file), text);
    }
    expect(extractCheckout(checkout).files).toEqual([
      {
        file: "packages/chat/src/chat.test.ts",
        count: 2,
        tests: [
          { describe: ["Chat"], title: "case 1" },
          { describe: ["Chat"], title: "case 2" },
        ],
      },
      {
        file: "packages/chat/src/jsx.test.tsx",
        count: 1,
        tests: [{ describe: [], title: "renders" }],
      },
    ]);
  });
});
