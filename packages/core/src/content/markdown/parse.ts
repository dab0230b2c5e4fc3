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

function normalizeCodeSpans(node: Nodes): void {
  if (node.type === "inlineCode") {
    node.value = node.value.replace(/\r\n|\r|\n/g, " ");
  } else if ("children" in node) {
    for (const child of node.children) normalizeCodeSpans(child);
  }
}
