import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Divergence } from "../src/divergences/divergence.js";
import type { FileMapping } from "../src/mapping.js";
import { checkDivergences, computeFidelity } from "../src/run-fidelity.js";
import type { UpstreamTests } from "../src/upstream-source.js";

const CHANNEL = "packages/chat/src/channel.test.ts";
const UPSTREAM: UpstreamTests = {
  source: "a test",
  files: [
    {
      file: CHANNEL,
      count: 3,
      tests: [
        { describe: ["ChannelImpl"], title: "should have correct id and adapter" },
        { describe: ["thread.channel"], title: "should cache the channel instance" },
        { describe: ["ChannelImpl"], title: "should return null when no state has been set" },
      ],
    },
  ],
};

function repoWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "fidelity-run-"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

describe("computeFidelity", () => {
  it("counts only the named describe blocks of a partly mapped file", () => {
    const repoRoot = repoWith({
      "core/channel.test.ts":
        'describe("ChannelImpl", () => { it("should have correct id and adapter", () => {}); });',
      "core/thread.test.ts": `
        describe("thread.channel", () => { it("should cache the channel instance", () => {}); });
        describe("Per-thread state", () => { it("should return null when no state has been set", () => {}); });`,
    });
    const mappings: FileMapping[] = [
      {
        upstream: CHANNEL,
        baton: ["core/channel.test.ts", { glob: "core/thread.test.ts", under: ["thread.channel"] }],
      },
    ];
    const report = computeFidelity({ repoRoot, upstream: UPSTREAM, mappings, divergences: [] });
    expect(report.files[0]?.results.map((r) => r.status)).toEqual([
      "matched",
      "matched",
      "missing",
    ]);
    expect(report.files[0]?.results[2]?.note).toBeUndefined();
    expect(report.files[0]?.batonFiles).toEqual(["core/channel.test.ts", "core/thread.test.ts"]);
    expect(report.problems).toEqual([]);
  });

  it("warns about computed titles in mapped files and reports unknown upstream files as problems", () => {
    const repoRoot = repoWith({
      "core/a.test.ts": "for (const s of list) { it(`${s} works`, () => {}); }",
    });
    const report = computeFidelity({
      repoRoot,
      upstream: UPSTREAM,
      mappings: [
        { upstream: CHANNEL, baton: ["core/**/*.test.ts"] },
        { upstream: "packages/chat/src/gone.test.ts", baton: [] },
      ],
      divergences: [],
    });
    expect(report.warnings).toEqual([
      `${CHANNEL}: core/a.test.ts:1: title computed at run time, so it cannot match: \`\${s} works\``,
    ]);
    expect(report.problems).toEqual([
      "mapping: packages/chat/src/gone.test.ts is not in the upstream titles",
    ]);
  });
});

describe("checkDivergences", () => {
  const repoRoot = repoWith({ "docs/adr/0001-x.md": "# 0001\n" });
  const mappings: FileMapping[] = [{ upstream: CHANNEL, baton: [] }];
  const check = (divergences: Divergence[]) =>
    checkDivergences(repoRoot, UPSTREAM, mappings, divergences);

  it("accepts entries whose titles and describe paths upstream has, with existing links", () => {
    expect(
      check([
        {
          upstream: CHANNEL,
          kind: "divergent",
          titles: ["should cache the channel instance"],
          reason: "r",
          link: "docs/adr/0001-x.md",
        },
        { upstream: CHANNEL, kind: "deferred", describe: ["ChannelImpl"], reason: "not built" },
      ]),
    ).toEqual([]);
  });

  it("reports typos, unmapped files, missing or broken links and double listings", () => {
    const where = `divergences: ${CHANNEL}`;
    expect(
      check([
        {
          upstream: CHANNEL,
          kind: "deferred",
          titles: ["should cache the channel instanse"],
          reason: "r",
        },
        { upstream: CHANNEL, kind: "deferred", describe: ["ChannelImp"], reason: "r" },
        {
          upstream: CHANNEL,
          kind: "divergent",
          titles: ["should have correct id and adapter"],
          reason: "no link",
        },
        {
          upstream: CHANNEL,
          kind: "deferred",
          titles: ["should have correct id and adapter"],
          reason: "again",
        },
        { upstream: CHANNEL, kind: "deferred", reason: "nothing named" },
        {
          upstream: CHANNEL,
          kind: "deferred",
          titles: ["should cache the channel instance"],
          reason: "r",
          link: "docs/adr/9999.md",
        },
        {
          upstream: "packages/chat/src/other.test.ts",
          kind: "deferred",
          titles: ["x"],
          reason: "r",
        },
      ]),
    ).toEqual([
      `${where}: no upstream test titled "should cache the channel instanse"`,
      `${where}: no upstream tests under "ChannelImp"`,
      `${where}: a divergent entry needs a link to its ADR or doc ("no link")`,
      `${where}: "should have correct id and adapter" is listed twice`,
      `${where}: an entry needs titles or a describe path`,
      `${where}: link docs/adr/9999.md does not exist`,
      "divergences: packages/chat/src/other.test.ts: not a mapped upstream file",
    ]);
  });
});
