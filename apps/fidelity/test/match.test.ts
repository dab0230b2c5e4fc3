import { describe, expect, it } from "vitest";
import type { Divergence } from "../src/divergences/divergence.js";
import { type BatonTest, matchTitles } from "../src/match.js";
import type { TestTitle } from "../src/test-title.js";

const up = (path: string[], title: string, modifiers?: string[]): TestTitle =>
  modifiers === undefined ? { describe: path, title } : { describe: path, title, modifiers };
const baton = (
  path: string[],
  title: string,
  file = "packages/core/test/a.test.ts",
  modifiers?: string[],
): BatonTest =>
  modifiers === undefined
    ? { describe: path, title, file }
    : { describe: path, title, file, modifiers };
const FILE = "packages/chat/src/chat.test.ts";

describe("matchTitles", () => {
  it("matches the same title with the same describe path as exact", () => {
    const { results, counts } = matchTitles(
      [up(["Chat", "message deduplication"], "should skip duplicate messages with the same id")],
      [baton(["Chat", "message deduplication"], "should skip duplicate messages with the same id")],
      [],
    );
    expect(results[0]).toMatchObject({
      status: "matched",
      exactPath: true,
      batonFile: "packages/core/test/a.test.ts",
    });
    expect(counts).toMatchObject({ total: 1, matched: 1, exact: 1, missing: 0 });
  });

  it("matches the same title under another describe path, reporting the path as different", () => {
    const { results, counts } = matchTitles(
      [up(["MemoryStateAdapter", "locking"], "should acquire a lock")],
      [baton(["locks"], "should acquire a lock", "packages/conformance/src/cases/locks.ts")],
      [],
    );
    expect(results[0]).toMatchObject({ status: "matched", exactPath: false });
    expect(counts).toMatchObject({ matched: 1, exact: 0 });
  });

  it("needs the title verbatim: case or wording changes do not match", () => {
    const { counts } = matchTitles(
      [up([], "should acquire a lock")],
      [baton([], "Should acquire a lock")],
      [],
    );
    expect(counts.missing).toBe(1);
  });

  it("lets each Baton test stand for one upstream test, pairing duplicate titles by describe path first", () => {
    const upstream = [
      up(["ChatError"], "should propagate cause"),
      up(["LockError"], "should propagate cause"),
      up(["RateLimitError"], "should propagate cause"),
    ];
    const { results } = matchTitles(
      upstream,
      [
        baton(["LockError"], "should propagate cause"),
        baton(["BatonError"], "should propagate cause"),
      ],
      [],
    );
    expect(results.map((r) => [r.status, r.exactPath])).toEqual([
      ["matched", false],
      ["matched", true],
      ["missing", undefined],
    ]);
  });

  it("matches an upstream each template by the titles a Baton it.each expanded to", () => {
    const { results } = matchTitles(
      [up(["Chat"], "should not treat %s as a mention (%s)", ["each"])],
      [baton(["Chat"], "should not treat jane@bot.com as a mention (an email)")],
      [],
    );
    expect(results[0]).toMatchObject({ status: "matched", exactPath: true });
  });

  it("matches upstream titles by a Baton template that stayed unexpanded", () => {
    const { counts } = matchTitles(
      [up([], "maps 1 to one"), up([], "maps 2 to two")],
      [baton([], "maps %i to %s", undefined, ["each"])],
      [],
    );
    expect(counts.matched).toBe(2);
  });

  it("does not count a skipped or todo Baton test, and says so on the missing title", () => {
    const { results } = matchTitles(
      [up([], "should connect to Redis"), up([], "later")],
      [
        baton([], "should connect to Redis", "x.test.ts", ["skip"]),
        baton([], "later", "y.test.ts", ["todo"]),
      ],
      [],
    );
    expect(results.map((r) => r.status)).toEqual(["missing", "missing"]);
    expect(results[0]?.note).toBe("a Baton test with this title is skipped or todo (x.test.ts)");
  });

  it("reports divergent and deferred tests with their reason and link, by title or by describe path", () => {
    const divergences: Divergence[] = [
      {
        upstream: FILE,
        kind: "divergent",
        titles: ["should force-release lock when onLockConflict is 'force'"],
        reason: "rejected",
        link: "docs/adr/0005-no-force-lock-release.md",
      },
      { upstream: FILE, kind: "deferred", describe: ["Chat", "getUser"], reason: "not built" },
    ];
    const { results, counts } = matchTitles(
      [
        up(["Chat", "onLockConflict"], "should force-release lock when onLockConflict is 'force'"),
        up(["Chat", "getUser"], "should return user info from adapter"),
        up(["Chat", "getUser", "deeper"], "should accept Author object"),
        up(["Chat", "getUserX"], "not covered by the prefix"),
      ],
      [],
      divergences,
    );
    expect(results.map((r) => r.status)).toEqual(["divergent", "deferred", "deferred", "missing"]);
    expect(results[0]).toMatchObject({
      reason: "rejected",
      link: "docs/adr/0005-no-force-lock-release.md",
    });
    expect(results[1]).toMatchObject({ reason: "not built" });
    expect(results[1]?.link).toBeUndefined();
    expect(counts).toMatchObject({ divergent: 1, deferred: 2, missing: 1 });
  });

  it("lets a match win over a divergence entry, and reports the entry as stale", () => {
    const { results, stale } = matchTitles(
      [up([], "ported after all")],
      [baton([], "ported after all")],
      [{ upstream: FILE, kind: "deferred", titles: ["ported after all"], reason: "not built" }],
    );
    expect(results[0]?.status).toBe("matched");
    expect(stale).toEqual(["ported after all"]);
  });

  it("points a missing title at a Baton test outside the mapping that has it", () => {
    const elsewhere = baton(
      [],
      "should clear state on disconnect",
      "packages/other/test/x.test.ts",
    );
    const { results } = matchTitles([up([], "should clear state on disconnect")], [], [], {
      anywhere: new Map([[elsewhere.title, [elsewhere]]]),
    });
    expect(results[0]).toMatchObject({
      status: "missing",
      note: "a Baton test with this title is in packages/other/test/x.test.ts, which is not mapped to this file",
    });
  });
});
