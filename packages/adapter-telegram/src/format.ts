import {
  BaseFormatConverter,
  type NodeRenderer,
  type NodeRenderers,
  parseMarkdown,
  type RenderContext,
  tableToAscii,
  toPlainText,
} from "@baton/core";
import type { List, Nodes, PhrasingContent, Root } from "mdast";

/** Telegram's parse modes the adapter writes; `plain` sends no `parse_mode`. */
export type TelegramParseMode = "MarkdownV2" | "HTML" | "plain";

// Every character MarkdownV2 reserves outside code and link URLs, and the backslash itself.
const RESERVED = /[_*[\]()~`>#+\-=|{}.!\\]/g;

/** `text` with every MarkdownV2 reserved character escaped: safe anywhere outside code. */
export function escapeMarkdownV2(text: string): string {
  return text.replace(RESERVED, (char) => `\\${char}`);
}

/** Inside `code` and ```pre``` only the backtick and the backslash are escaped. */
export function escapeMarkdownV2Code(text: string): string {
  return text.replace(/[`\\]/g, (char) => `\\${char}`);
}

/** Inside a link's `(…)` only `)` and the backslash are escaped. */
export function escapeMarkdownV2Url(url: string): string {
  return url.replace(/[)\\]/g, (char) => `\\${char}`);
}

/** `text` escaped for Telegram's HTML parse mode. */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) =>
    char === "&" ? "&amp;" : char === "<" ? "&lt;" : char === ">" ? "&gt;" : "&quot;",
  );
}

function hasAncestor(context: RenderContext, type: Nodes["type"]): boolean {
  return context.ancestors.some((ancestor) => ancestor.type === type);
}

/**
 * Joins inline children; two adjacent italic nodes get a `\r` between them, because Telegram
 * reads `__` greedily as underline (its documented separator).
 */
function inline(node: Nodes, context: RenderContext): string {
  if (!("children" in node)) return context.render(node);
  let out = "";
  let previous: Nodes | undefined;
  for (const child of node.children as Nodes[]) {
    if (previous?.type === "emphasis" && child.type === "emphasis") out += "\r";
    out += context.render(child);
    previous = child;
  }
  return out;
}

/** A wrapper mark, left out when the same mark already wraps the node (Telegram cannot nest it). */
function marked(mark: string, type: Nodes["type"]): NodeRenderer {
  return (node, context) => {
    const inner = inline(node, context);
    return hasAncestor(context, type) ? inner : `${mark}${inner}${mark}`;
  };
}

function listItemPrefix(list: List, index: number): string {
  return list.ordered ? `${(list.start ?? 1) + index}\\. ` : "\\- ";
}

const LANGUAGE = /^[A-Za-z0-9_+#-]{1,32}$/;

const MARKDOWN_V2_RENDERERS: NodeRenderers = {
  root: (node, context) =>
    node.children
      .map((child) => context.render(child))
      .filter((block) => block.trim() !== "")
      .join("\n\n"),
  paragraph: (node, context) => inline(node, context),
  text: (node) => escapeMarkdownV2(node.value),
  html: (node) => escapeMarkdownV2(node.value),
  break: () => "\n",
  strong: marked("*", "strong"),
  emphasis: marked("_", "emphasis"),
  delete: marked("~", "delete"),
  heading: (node, context) => {
    const inner = inline(node, context);
    return inner === "" ? "" : `*${inner}*`;
  },
  inlineCode: (node) => `\`${escapeMarkdownV2Code(node.value)}\``,
  code: (node) => {
    const language = node.lang && LANGUAGE.test(node.lang) ? node.lang : "";
    return `\`\`\`${language}\n${escapeMarkdownV2Code(node.value)}\n\`\`\``;
  },
  link: (node, context) => {
    const label = inline(node, context) || escapeMarkdownV2(node.url);
    return `[${label}](${escapeMarkdownV2Url(node.url)})`;
  },
  image: (node) => `[${escapeMarkdownV2(node.alt || node.url)}](${escapeMarkdownV2Url(node.url)})`,
  linkReference: (node, context) => inline(node, context),
  imageReference: (node) => escapeMarkdownV2(node.alt ?? ""),
  footnoteReference: (node) => escapeMarkdownV2(`[${node.identifier}]`),
  thematicBreak: () => "———",
  blockquote: (node, context) => {
    const inner = node.children.map((child) => context.render(child)).join("\n");
    // A quote starts at a line start and does not nest: one inside another block (a list item,
    // a quote) keeps its text without the marks.
    if (context.ancestors.some((ancestor) => ancestor.type !== "root")) return inner;
    return inner
      .split("\n")
      .map((line) => `>${line}`)
      .join("\n");
  },
  list: (node, context) => {
    const depth = context.ancestors.filter((ancestor) => ancestor.type === "list").length;
    const indent = "  ".repeat(depth);
    return node.children
      .map((item, index) => {
        const body = item.children
          .map((child) => context.render(child))
          .join("\n")
          .replace(/\n(?!\s*(\\-|\d+\\\.) )/g, `\n${indent}  `);
        const check = item.checked === true ? "\\[x\\] " : item.checked === false ? "\\[ \\] " : "";
        return `${indent}${listItemPrefix(node, index)}${check}${body}`;
      })
      .join("\n");
  },
  table: (node) => `\`\`\`\n${escapeMarkdownV2Code(tableToAscii(node))}\n\`\`\``,
};

/**
 * Markdown ↔ Telegram's MarkdownV2 (upstream `TelegramFormatConverter`'s name). Outbound, every
 * reserved character is escaped where Telegram requires it — text, code, link URLs each by its
 * own rule — so any markdown renders to text Telegram accepts; headings become bold, lists keep
 * escaped bullets, tables become monospace blocks. Inbound text is read as markdown (Telegram
 * sends plain text plus entities, which `applyTelegramEntities` turns into markdown first).
 */
export class TelegramFormatConverter extends BaseFormatConverter {
  fromAst(ast: Root): string {
    return this.fromAstWithRenderers(ast, MARKDOWN_V2_RENDERERS).trimEnd();
  }

  toAst(platformText: string): Root {
    return parseMarkdown(platformText);
  }
}

/** The plain text of inline markdown nodes (for labels that cannot carry formatting). */
export function phrasingToPlainText(nodes: readonly PhrasingContent[]): string {
  return nodes.map((node) => toPlainText(node)).join("");
}
