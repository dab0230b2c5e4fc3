import type { Nodes, Root } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkStringify from "remark-stringify";
import { unified } from "unified";

// Built once and frozen: a unified processor is reusable and cheap to call, expensive to set up.
const parser = unified().use(remarkParse).use(remarkGfm).freeze();
const stringifier = unified().use(remarkStringify).use(remarkGfm).freeze();

/**
 * Parses markdown into an mdast tree with remark and GitHub Flavored Markdown (strikethrough,
 * tables, task lists, autolinks). Never throws: any string is some markdown, and the empty string
 * is a root with no children. Nodes carry `position`s into `markdown`. Line endings inside inline
 * code become spaces, as CommonMark defines a code span's content (remark keeps them, and writes
 * them back as spaces, so without this a round trip would change the tree).
 */
export function parseMarkdown(markdown: string): Root {
  if (PLAIN_LINE.test(markdown) && !SURROGATE.test(markdown)) return plainLineTree(markdown);
  const tree = parser.parse(markdown);
  normalizeCodeSpans(tree);
  return tree;
}

/**
 * Writes an mdast tree back as markdown (remark's defaults: `*emphasis*`, `**strong**`, `*`
 * bullets, fenced code, GFM tables). The result ends with a newline unless the tree is empty.
 * Parsing the result gives the same tree again, positions aside.
 */
export function stringifyMarkdown(ast: Root): string {
  return stringifier.stringify(ast);
}

/**
 * One line that no markdown or GFM construct can start or contain: letters, digits, inner
 * spaces and `, ? ! ' @` (no `.`, so no e-mail or `www.` autolink; no leading or trailing
 * space, which remark would trim). Most chat messages look like this ("@bot can you help?"),
 * and remark needs tens of microseconds to find nothing in them; a webhook parses one per
 * delivery before it may answer. Astral characters are left to remark: its columns count them
 * differently. `markdown-fast-path.property.test.ts` pins the tree to remark's own.
 */
const PLAIN_LINE = /^[\p{L}\p{N}@](?:[\p{L}\p{N} ,?!'@]*[\p{L}\p{N}?!'@])?$/u;

const SURROGATE = /[\uD800-\uDFFF]/;

/** The tree remark builds for a {@link PLAIN_LINE}: a paragraph holding one text node. */
function plainLineTree(line: string): Root {
  const position = () => ({
    start: { line: 1, column: 1, offset: 0 },
    end: { line: 1, column: line.length + 1, offset: line.length },
  });
  return {
    type: "root",
    children: [
      {
        type: "paragraph",
        children: [{ type: "text", value: line, position: position() }],
        position: position(),
      },
    ],
    position: position(),
  };
}

function normalizeCodeSpans(node: Nodes): void {
  if (node.type === "inlineCode") {
    node.value = node.value.replace(/\r\n|\r|\n/g, " ");
  } else if ("children" in node) {
    for (const child of node.children) normalizeCodeSpans(child);
  }
}
