/**
 * The markdown round trip on generated documents: parse → stringify → parse gives the same tree,
 * positions aside, and stringifying is then a fixed point. Documents mix every construct a bot
 * posts: headings, emphasis, strong, strikethrough, inline code, links, code blocks, lists,
 * block quotes and tables, with characters markdown must escape inside plain words.
 */
import fc from "fast-check";
import type { Nodes } from "mdast";
import { describe, expect, it } from "vitest";
import { parseMarkdown, stringifyMarkdown } from "../../src/content/index.js";

const RUNS = { seed: 20_261_203, numRuns: 200 } as const;
// remark takes a few milliseconds per document, many more on a loaded machine; the work is
// deterministic CPU, so a wider timeout cannot hide a timing bug.
const TIMEOUT_MS = 60_000;

const word = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,8}$/) },
  // Words with characters markdown would read as syntax: the stringifier must escape them.
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{1,4}[*_#<>[\]`~|\\!]{1,2}[a-z]{0,3}$/) },
);
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(" "));

const inline = fc.oneof(
  { weight: 4, arbitrary: words },
  { weight: 1, arbitrary: words.map((inner) => `**${inner}**`) },
  { weight: 1, arbitrary: words.map((inner) => `_${inner}_`) },
  { weight: 1, arbitrary: words.map((inner) => `~~${inner}~~`) },
  {
    weight: 1,
    arbitrary: fc
      .stringMatching(/^[A-Za-z0-9 =+().]{1,12}$/)
      .map((code) => `\`${code.trim() || "x"}\``),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(words, fc.stringMatching(/^[a-z0-9]{1,8}$/))
      .map(([label, path]) => `[${label}](https://example.com/${path})`),
  },
);
const phrasing = fc.array(inline, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(" "));

const heading = fc
  .tuple(fc.integer({ min: 1, max: 6 }), phrasing)
  .map(([depth, content]) => `${"#".repeat(depth)} ${content}`);
const codeBlock = fc
  .tuple(
    fc.constantFrom("", "ts", "json", "sh"),
    fc.array(fc.stringMatching(/^[ -~]{0,24}$/), { minLength: 1, maxLength: 3 }),
  )
  .map(
    ([lang, lines]) =>
      `\`\`\`${lang}\n${lines.map((line) => line.replaceAll("`", "'")).join("\n")}\n\`\`\``,
  );
const list = fc
  .tuple(fc.boolean(), fc.array(phrasing, { minLength: 1, maxLength: 4 }))
  .map(([ordered, items]) =>
    items.map((item, index) => `${ordered ? `${index + 1}.` : "-"} ${item}`).join("\n"),
  );
const quote = fc
  .array(phrasing, { minLength: 1, maxLength: 2 })
  .map((lines) => lines.map((line) => `> ${line}`).join("\n"));
const table = fc.integer({ min: 1, max: 3 }).chain((columns) =>
  fc
    .array(fc.array(words, { minLength: columns, maxLength: columns }), {
      minLength: 2,
      maxLength: 4,
    })
    .map(([header = [], ...rows]) => {
      const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
      const separator = line(header.map(() => "---"));
      return [line(header), separator, ...rows.map(line)].join("\n");
    }),
);

const document = fc
  .array(fc.oneof(phrasing, heading, codeBlock, list, quote, table), {
    minLength: 1,
    maxLength: 3,
  })
  .map((blocks) => blocks.join("\n\n"));

/** The tree without `position`s (and without the `data` remark leaves empty). */
function shape(node: Nodes): unknown {
  const { position: _position, ...rest } = node as Nodes & { position?: unknown };
  if ("children" in rest) {
    return { ...rest, children: (rest.children as Nodes[]).map(shape) };
  }
  return rest;
}

describe("markdown round trip (property)", () => {
  it(
    "parse → stringify → parse gives the same tree on generated documents",
    () => {
      fc.assert(
        fc.property(document, (markdown) => {
          const first = parseMarkdown(markdown);
          const written = stringifyMarkdown(first);
          const second = parseMarkdown(written);
          expect(shape(second)).toEqual(shape(first));
          // And writing is then a fixed point: a reposted message does not drift.
          expect(stringifyMarkdown(second)).toBe(written);
        }),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );

  it(
    "generates every construct it claims to",
    () => {
      // Guards the generator itself: a property over documents that never hold a table proves
      // nothing about tables.
      const seen = new Set<string>();
      fc.assert(
        fc.property(document, (markdown) => {
          const visit = (node: Nodes): void => {
            seen.add(node.type);
            if ("children" in node) for (const child of node.children) visit(child);
          };
          visit(parseMarkdown(markdown));
        }),
        RUNS,
      );
      for (const type of [
        "heading",
        "strong",
        "emphasis",
        "delete",
        "inlineCode",
        "link",
        "code",
      ]) {
        expect(seen).toContain(type);
      }
      for (const type of ["list", "blockquote", "table", "paragraph"]) expect(seen).toContain(type);
    },
    TIMEOUT_MS,
  );
});
