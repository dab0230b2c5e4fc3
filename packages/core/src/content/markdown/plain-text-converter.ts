import type { List, ListItem, Root } from "mdast";
import type { CardElement } from "../cards/card-types.js";
import { paragraph, root, text } from "./builders.js";
import { BaseFormatConverter } from "./format-converter.js";
import type { NodeRenderers, RenderContext } from "./render-ast.js";
import { tableToAscii } from "./table-to-ascii.js";

const INDENT = "  ";

/**
 * Renderers for platforms that show text as typed (SMS, some bridges): formatting marks are
 * dropped, but what carries meaning survives: list bullets and numbers, quote marks, link
 * targets, tables as monospace columns. Also the fallback set adapters spread their own
 * renderers over.
 */
export const PLAIN_TEXT_RENDERERS: NodeRenderers = {
  paragraph: (node, context) => context.renderChildren(node),
  heading: (node, context) => context.renderChildren(node),
  strong: (node, context) => context.renderChildren(node),
  emphasis: (node, context) => context.renderChildren(node),
  delete: (node, context) => context.renderChildren(node),
  link: (node, context) => {
    const label = context.renderChildren(node);
    return label === "" || label === node.url ? node.url : `${label} (${node.url})`;
  },
  blockquote: (node, context) =>
    context
      .renderChildren(node, "\n\n")
      .split("\n")
      .map((line) => (line === "" ? ">" : `> ${line}`))
      .join("\n"),
  list: (node, context) => renderList(node, context),
  table: (node) => tableToAscii(node),
  thematicBreak: () => "---",
};

function renderList(list: List, context: RenderContext): string {
  const start = list.start ?? 1;
  return list.children
    .map((item, index) => {
      const marker = list.ordered ? `${start + index}. ` : "- ";
      return prefixLines(renderItem(item, context), marker);
    })
    .join("\n");
}

function renderItem(item: ListItem, context: RenderContext): string {
  const check = item.checked === true ? "[x] " : item.checked === false ? "[ ] " : "";
  return check + item.children.map((child) => context.render(child)).join("\n");
}

// The marker goes on the first line; later lines (nested lists, second paragraphs) are indented.
function prefixLines(block: string, marker: string): string {
  return block
    .split("\n")
    .map((line, index) => (index === 0 ? marker + line : line === "" ? "" : INDENT + line))
    .join("\n");
}

/**
 * The converter of a platform without formatting. Outbound it renders with
 * {@link PLAIN_TEXT_RENDERERS}; inbound it reads text literally (a `*` is a star, not emphasis):
 * each blank-line-separated block becomes a paragraph of one text node.
 */
export class PlainTextConverter extends BaseFormatConverter {
  fromAst(ast: Root): string {
    return this.fromAstWithRenderers(ast, PLAIN_TEXT_RENDERERS);
  }

  toAst(platformText: string): Root {
    const blocks = platformText
      .replace(/\r\n?/g, "\n")
      .split(/\n[ \t]*\n/)
      .map((block) => block.trim())
      .filter((block) => block !== "");
    return root(blocks.map((block) => paragraph([text(block)])));
  }

  /** The card's markdown fallback, rendered plain like any other markdown (no `**` marks). */
  protected override cardToFallbackText(card: CardElement): string {
    return this.fromMarkdown(super.cardToFallbackText(card));
  }
}
