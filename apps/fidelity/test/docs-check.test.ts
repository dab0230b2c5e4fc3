import { describe, expect, it } from "vitest";
import { checkDocs, parseSummaryTable } from "../src/docs-check.js";
import { GENERATED_HEADER, renderMarkdown } from "../src/render-markdown.js";
import { reportWith } from "./report-fixture.js";

const CHAT = "packages/chat/src/chat.test.ts";
const FIX = "run `pnpm --filter @baton/fidelity fidelity`";

describe("docs/fidelity.md", () => {
  it("starts with the generated-file line and reads its numbers table back", () => {
    const markdown = renderMarkdown(reportWith({ [CHAT]: 2, "b.test.ts": 0 }));
    expect(markdown.split("\n")[0]).toBe(GENERATED_HEADER);
    expect(GENERATED_HEADER).toContain("pnpm --filter @baton/fidelity fidelity");
    expect(parseSummaryTable(markdown)).toEqual(
      new Map([
        [CHAT, { total: 10, matched: 8, exact: 8, divergent: 0, deferred: 0, missing: 2 }],
        ["b.test.ts", { total: 10, matched: 10, exact: 10, divergent: 0, deferred: 0, missing: 0 }],
      ]),
    );
  });

  it("lists every missing title", () => {
    const markdown = renderMarkdown(reportWith({ [CHAT]: 2 }));
    expect(markdown).toContain("### Missing (2)\n\n- Chat: “test 0”\n- Chat: “test 1”\n");
  });

  it("passes when the table matches, whatever the lists below it say", () => {
    const markdown = renderMarkdown(reportWith({ [CHAT]: 2 })).replace("test 0", "renamed");
    expect(checkDocs(markdown, reportWith({ [CHAT]: 2 }))).toEqual({ failures: [], hints: [] });
  });

  it("fails, telling how to regenerate, when the document claims fewer missing titles than there are", () => {
    const markdown = renderMarkdown(reportWith({ [CHAT]: 1 }));
    const { failures } = checkDocs(markdown, reportWith({ [CHAT]: 3 }));
    expect(failures).toEqual([
      `docs/fidelity.md is stale: ${CHAT} shows 9 matched / 1 missing, but now 7 matched / 3 missing; ${FIX}`,
    ]);
  });

  it("passes with a hint when the document only understates, as after a port not yet regenerated", () => {
    const markdown = renderMarkdown(reportWith({ [CHAT]: 3 }));
    expect(checkDocs(markdown, reportWith({ [CHAT]: 1 }))).toEqual({
      failures: [],
      hints: [`docs/fidelity.md understates ${CHAT} (it improved); ${FIX}`],
    });
  });

  it("fails when the document is absent, unreadable, or lists other files", () => {
    const report = reportWith({ [CHAT]: 0 });
    expect(checkDocs(undefined, report).failures).toEqual([
      `docs/fidelity.md does not exist; ${FIX}`,
    ]);
    expect(checkDocs("# edited by hand\n", report).failures).toEqual([
      `docs/fidelity.md has no readable summary table; ${FIX}`,
    ]);
    const other = renderMarkdown(reportWith({ "other.test.ts": 0 }));
    expect(checkDocs(other, report).failures).toEqual([
      `docs/fidelity.md: ${CHAT} is not in the summary table; ${FIX}`,
      `docs/fidelity.md lists other.test.ts, which is no longer mapped; ${FIX}`,
    ]);
  });
});
