import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type CliIo, type FidelityConfig, runCli } from "../src/cli.js";
import { parseSummaryTable } from "../src/docs-check.js";
import { GENERATED_HEADER } from "../src/render-markdown.js";

const CHAT = "packages/chat/src/chat.test.ts";
const BATON_TEST = "packages/core/test/chat/routing.test.ts";

const CONFIG: FidelityConfig = {
  mappings: [{ upstream: CHAT, baton: ["packages/core/test/chat/**/*.test.ts"] }],
  divergences: [
    {
      upstream: CHAT,
      kind: "divergent",
      titles: ["should force-release lock when onLockConflict is 'force'"],
      reason: "rejected",
      link: "docs/adr/0005-no-force-lock-release.md",
    },
  ],
};

/** One matched, one divergent, one missing. */
const COUNTS = { total: 3, matched: 1, exact: 1, divergent: 1, deferred: 0, missing: 1 };

const UPSTREAM_SOURCE = `
describe("Chat", () => {
  it("should skip messages from self", () => {});
  it("should match message patterns", () => {});
  describe("onLockConflict", () => {
    it("should force-release lock when onLockConflict is 'force'", () => {});
  });
});`;

function write(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

function batonTests(...titles: string[]): string {
  return `describe("Chat", () => {\n${titles.map((t) => `  it(${JSON.stringify(t)}, () => {});`).join("\n")}\n});\n`;
}

describe("the fidelity command", () => {
  let repo: string;
  let manifest: string;
  let out: string[];
  let err: string[];
  const io: CliIo = { out: (text) => out.push(text), err: (text) => err.push(text) };
  const run = (...args: string[]) =>
    runCli(["--repo", repo, "--manifest", manifest, ...args], io, CONFIG);

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), "fidelity-repo-"));
    out = [];
    err = [];
    write(repo, "docs/adr/0005-no-force-lock-release.md", "# 0005\n");
    write(repo, "apps/fidelity/.keep", "");
    write(repo, BATON_TEST, batonTests("should skip messages from self", "a Baton-only test"));
    manifest = join(repo, "upstream.json");
    const tests = [
      { describe: ["Chat"], title: "should skip messages from self" },
      { describe: ["Chat"], title: "should match message patterns" },
      {
        describe: ["Chat", "onLockConflict"],
        title: "should force-release lock when onLockConflict is 'force'",
      },
    ];
    writeFileSync(
      manifest,
      JSON.stringify({ upstream: "chat 4.38.1", files: [{ file: CHAT, count: 3, tests }] }),
    );
  });

  it("prints the table, writes docs/fidelity.md and, when asked, the baseline", () => {
    expect(run("--update-baseline")).toBe(0);
    const docs = readFileSync(join(repo, "docs/fidelity.md"), "utf8");
    expect(docs.split("\n")[0]).toBe(GENERATED_HEADER);
    expect(parseSummaryTable(docs)?.get(CHAT)).toEqual(COUNTS);
    expect(docs).toContain("- Chat: “should match message patterns”");
    expect(out.join("\n")).toMatch(/packages\/chat\/src\/chat\.test\.ts\s+3\s+1\s+1\s+1\s+0\s+1/);
    expect(
      JSON.parse(readFileSync(join(repo, "apps/fidelity/baseline.json"), "utf8")).missing,
    ).toEqual({
      [CHAT]: 1,
    });
    expect(run("--check")).toBe(0);
    expect(out.at(-1)).toBe("fidelity check passed");
  });

  it("fails --check with exit 1, naming the file and the numbers, when a missing count rises", () => {
    run("--update-baseline");
    write(repo, BATON_TEST, batonTests("should skip own messages", "a Baton-only test"));
    expect(run("--check")).toBe(1);
    const errors = err.join("\n");
    expect(errors).toContain(`FAIL ${CHAT}: 2 missing upstream titles, baseline 1 (+1).`);
    expect(errors).toContain("- Chat › should skip messages from self");
    expect(errors).toContain("docs/fidelity.md is stale");
  });

  it("passes --check when a count falls, with hints to lower the baseline and regenerate", () => {
    run("--update-baseline");
    write(
      repo,
      BATON_TEST,
      batonTests("should skip messages from self", "should match message patterns"),
    );
    expect(run("--check")).toBe(0);
    expect(out).toContain(
      `hint: ${CHAT}: 0 missing, baseline 1 — lower the baseline: \`pnpm --filter @baton/fidelity fidelity --update-baseline\``,
    );
    expect(out).toContain(
      `hint: docs/fidelity.md understates ${CHAT} (it improved); run \`pnpm --filter @baton/fidelity fidelity\``,
    );
  });

  it("fails on a divergence that names a title upstream does not have", () => {
    run("--update-baseline");
    const config: FidelityConfig = {
      ...CONFIG,
      divergences: [
        { upstream: CHAT, kind: "deferred", titles: ["should frobnicate"], reason: "not built" },
      ],
    };
    expect(runCli(["--repo", repo, "--manifest", manifest, "--check"], io, config)).toBe(1);
    expect(err).toContain(
      `FAIL problem: divergences: ${CHAT}: no upstream test titled "should frobnicate"`,
    );
  });

  it("extracts upstream's titles from a checkout with --upstream", () => {
    const checkout = mkdtempSync(join(tmpdir(), "fidelity-upstream-"));
    write(checkout, CHAT, UPSTREAM_SOURCE);
    expect(runCli(["--repo", repo, "--upstream", checkout], io, CONFIG)).toBe(0);
    const docs = readFileSync(join(repo, "docs/fidelity.md"), "utf8");
    expect(docs).toContain(`Upstream titles: titles extracted from ${checkout}.`);
    expect(parseSummaryTable(docs)?.get(CHAT)).toEqual(COUNTS);
  });

  it("reports a missing manifest and bad arguments instead of throwing", () => {
    expect(runCli(["--repo", repo, "--manifest", join(repo, "absent.json")], io, CONFIG)).toBe(1);
    expect(err[0]).toMatch(/^fidelity: read upstream manifest .*absent\.json/);
    expect(runCli(["--frobnicate"], io, CONFIG)).toBe(2);
    expect(runCli(["--help"], io, CONFIG)).toBe(0);
    expect(out.at(-1)).toContain("--update-baseline");
  });
});
