import { type NodeRenderers, parseMarkdown, renderAst, toPlainText } from "@baton/core";
import type { Nodes } from "mdast";
import { decodeHtmlEntities } from "./format.js";

/** Escapes text for Teams' HTML message body (`&`, `<`, `>`, `"`). */
export function escapeTeamsText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** The inverse of {@link escapeTeamsText} (and every other entity Teams sends). */
export function unescapeTeamsText(text: string): string {
  return decodeHtmlEntities(text);
}

/** A Teams mention of a display name: `<at>name</at>`, the name escaped. */
export function formatTeamsMention(name: string): string {
  return `<at>${escapeTeamsText(name)}</at>`;
}

/** `<at>name</at>` mentions as `@name`, entities decoded. */
export function teamsMentionToPlainText(text: string): string {
  return unescapeTeamsText(text.replace(/<at[^>]*>(.*?)<\/at>/gis, "@$1"));
}

/**
 * Removes every tag, repeatedly, so input whose tags are nested to split each other (`<<b>x>`)
 * leaves no complete tag behind.
 */
export function stripTeamsTags(text: string): string {
  let current = text;
  let previous: string;
  do {
    previous = current;
    current = current.replace(/<\/?[a-z!][^<>]*>/gi, "");
  } while (current !== previous);
  return current;
}

const SAFE_LINK = /^(https?:|mailto:)/i;

/** Escaped plain text of a node Teams HTML has no markup for (a table, a footnote, …). */
const plain = (node: Nodes): string => escapeTeamsText(toPlainText(node));

/**
 * Markdown → Teams message HTML, rendered from the markdown tree (core's `renderAst`), so code
 * spans and code blocks keep their text as written (`**` inside one is not bold). Every text is
 * escaped; links keep only http(s) and mailto targets — any other link (`javascript:`,
 * relative) becomes its label.
 */
const TEAMS_HTML_RENDERERS: NodeRenderers = {
  root: (node, context) => context.renderChildren(node, "\n\n"),
  paragraph: (node, context) => context.renderChildren(node),
  heading: (node, context) => `<strong>${context.renderChildren(node)}</strong>`,
  text: (node) => escapeTeamsText(node.value),
  strong: (node, context) => `<strong>${context.renderChildren(node)}</strong>`,
  emphasis: (node, context) => `<em>${context.renderChildren(node)}</em>`,
  delete: (node, context) => `<s>${context.renderChildren(node)}</s>`,
  inlineCode: (node) => `<code>${escapeTeamsText(node.value)}</code>`,
  code: (node) => `<pre><code>${escapeTeamsText(node.value)}</code></pre>`,
  link: (node, context) => {
    const label = context.renderChildren(node);
    return SAFE_LINK.test(node.url) ? `<a href="${escapeTeamsText(node.url)}">${label}</a>` : label;
  },
  break: () => "<br>",
  blockquote: (node, context) => `<blockquote>${context.renderChildren(node, "<br>")}</blockquote>`,
  list: (node, context) => {
    const tag = node.ordered ? "ol" : "ul";
    return `<${tag}>${node.children.map((item) => `<li>${context.render(item)}</li>`).join("")}</${tag}>`;
  },
  listItem: (node, context) => context.renderChildren(node, "<br>"),
  thematicBreak: () => "<hr>",
  html: (node) => escapeTeamsText(node.value),
  image: (node) => escapeTeamsText(node.alt ?? ""),
  imageReference: (node) => escapeTeamsText(node.alt ?? ""),
  linkReference: plain,
  definition: () => "",
  footnoteDefinition: plain,
  footnoteReference: plain,
  table: plain,
  tableRow: plain,
  tableCell: plain,
  yaml: () => "",
};

/**
 * Markdown as Teams message HTML: bold, italic, strike, code spans and blocks, links (only
 * http(s) and mailto targets), lists, quotes; everything else as its escaped text.
 */
export function markdownToTeamsHtml(markdown: string): string {
  return renderAst(parseMarkdown(markdown), TEAMS_HTML_RENDERERS);
}

/** Common `:shortcode:` emoji, as people type them in Teams. */
const SHORTCODES: Record<string, string> = {
  white_check_mark: "✅",
  heavy_check_mark: "✔️",
  x: "❌",
  warning: "⚠️",
  rocket: "🚀",
  tada: "🎉",
  eyes: "👀",
  thumbsup: "👍",
  "+1": "👍",
  thumbsdown: "👎",
  heart: "❤️",
  fire: "🔥",
  smile: "😄",
  thinking: "🤔",
};

/** Replaces common `:shortcode:` placeholders by their emoji; unknown ones stay as typed. */
export function convertTeamsEmojiPlaceholders(text: string): string {
  return text.replace(/:([a-z0-9_+-]+):/g, (match, name: string) => SHORTCODES[name] ?? match);
}
