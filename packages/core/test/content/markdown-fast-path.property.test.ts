/**
 * `parseMarkdown` answers plain one-line text without remark. These properties pin that answer
 * to remark's own tree, positions included, for generated lines the fast path takes and for
 * near misses it must leave to remark.
 */
import fc from "fast-check";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import { parseMarkdown } from "../../src/content/index.js";

const remark = unified().use(remarkParse).use(remarkGfm).freeze();
const RUNS = { seed: 20_261_203, numRuns: 500 } as const;
const TIMEOUT_MS = 60_000;

// Every such line is one the fast path takes: it starts with a letter, digit or `@` and ends
// with no space.
const plainLine = fc.stringMatching(
  /^[A-Za-z0-9éßж中@](?:[A-Za-z0-9éßж中 ,?!'@]{0,38}[A-Za-z0-9?!])?$/,
);
// Characters that can start a construct, mixed into otherwise plain lines.
const nearMiss = fc
  .tuple(
    plainLine,
    fc.constantFrom(
      ".",
      "*",
      "_",
      "#",
      "-",
      "1.",
      "`",
      "<",
      "&",
      "\n",
      " ",
      "😀",
      "www.",
      "a@b.c",
      "~~",
      "|",
    ),
    plainLine,
  )
  .map(([before, syntax, after]) => `${before}${syntax}${after}`);

describe("parseMarkdown's plain-line fast path", () => {
  it(
    "gives remark's tree, positions included, for plain one-line text",
    () => {
      fc.assert(
        fc.property(plainLine, (line) => {
          expect(parseMarkdown(line)).toEqual(remark.parse(line));
        }),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );

  it(
    "gives remark's tree for lines with syntax characters, which take remark's path",
    () => {
      fc.assert(
        fc.property(nearMiss, (line) => {
          expect(parseMarkdown(line)).toEqual(remark.parse(line));
        }),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );

  it("keeps the mention a Slack or Teams message starts with as text", () => {
    const tree = parseMarkdown("@U0BOT00001 can you help me, please?");
    expect(tree).toEqual(remark.parse("@U0BOT00001 can you help me, please?"));
    expect(tree.children).toMatchObject([
      {
        type: "paragraph",
        children: [{ type: "text", value: "@U0BOT00001 can you help me, please?" }],
      },
    ]);
  });
});
