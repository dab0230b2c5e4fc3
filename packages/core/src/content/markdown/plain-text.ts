import type { Nodes, Table } from "mdast";
import { parseMarkdown } from "./parse.js";

/**
 * The text of an mdast tree without its formatting. Unlike a bare concatenation of the leaves,
 * structure becomes whitespace, so words of different blocks never run together (mention
 * detection reads this text): blocks are separated by a blank line, list items and hard breaks by
 * a newline, table cells by a tab and rows by a newline (rows with no content are dropped, empty
 * cells kept so columns stay aligned). Code keeps its text; images give their alt text; thematic
 * breaks, definitions and other invisible nodes give nothing.
 */
export function toPlainText(ast: Nodes): string {
  return plainTextOf(ast);
}

/** {@link toPlainText} of the markdown `markdown` (parsed with {@link parseMarkdown}). */
export function markdownToPlainText(markdown: string): string {
  return toPlainText(parseMarkdown(markdown));
}

function plainTextOf(node: Nodes): string {
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "code":
    case "html":
      return node.value;
    case "break":
      return "\n";
    case "image":
    case "imageReference":
      return node.alt ?? "";
    case "root":
    case "blockquote":
    case "footnoteDefinition":
      return joinBlocks(node.children, "\n\n");
    case "list":
    case "listItem":
      return joinBlocks(node.children, "\n");
    case "table":
      return tableText(node);
    case "thematicBreak":
    case "definition":
      return "";
    default:
      return "children" in node ? node.children.map(plainTextOf).join("") : "";
  }
}

function joinBlocks(children: readonly Nodes[], separator: string): string {
  return children
    .map(plainTextOf)
    .filter((text) => text !== "")
    .join(separator);
}

function tableText(table: Table): string {
  return table.children
    .map((row) => row.children.map((cell) => plainTextOf(cell).trim()))
    .filter((cells) => cells.some((cell) => cell !== ""))
    .map((cells) => cells.join("\t"))
    .join("\n");
}
