import {
  BaseFormatConverter,
  type NodeRenderers,
  parseMarkdown,
  type RenderablePostable,
  type RenderContext,
} from "@baton/core";
import type { List, ListItem, Root, TableCell } from "mdast";

/** `@name` not inside a word, an email address or a URL path. */
const MENTION = /(^|[\s(])@([A-Za-z0-9_][\w.-]*)/g;

/** Writes plain `@name` mentions as Teams' `<at>name</at>` (outside code and links). */
export function toTeamsMentions(text: string): string {
  return text.replace(MENTION, (_match, lead: string, name: string) => `${lead}<at>${name}</at>`);
}

function renderList(node: List, context: RenderContext): string {
  return node.children
    .map((item: ListItem, index) => {
      const marker = node.ordered ? `${(node.start ?? 1) + index}.` : "-";
      const [first, ...rest] = item.children;
      const head = first === undefined ? "" : context.render(first);
      // Nested blocks (sub-lists) are indented two spaces per level, as Teams expects.
      const nested = rest
        .map((child) => context.render(child))
        .filter((text) => text !== "")
        .map((text) => text.replace(/^/gm, "  "));
      return [`${marker} ${head}`, ...nested].join("\n");
    })
    .join("\n");
}

function cellText(cell: TableCell, context: RenderContext): string {
  return context.renderChildren(cell).replace(/\|/g, "\\|");
}

/**
 * Markdown → the subset Teams renders in a message (`textFormat: markdown`): `**bold**`,
 * `_italic_`, `~~strike~~`, code spans and fences, `[text](url)` links, `>` quotes, `-`/`1.`
 * lists indented two spaces per level, `---` and GFM pipe tables. Headings become bold lines
 * (Teams draws no heading sizes in chat). `@name` becomes `<at>name</at>`.
 */
const TEAMS_RENDERERS: NodeRenderers = {
  root: (node, context) => context.renderChildren(node, "\n\n"),
  paragraph: (node, context) => context.renderChildren(node),
  text: (node, context) =>
    context.ancestors.some((parent) => parent.type === "link")
      ? node.value
      : toTeamsMentions(node.value),
  strong: (node, context) => `**${context.renderChildren(node)}**`,
  emphasis: (node, context) => `_${context.renderChildren(node)}_`,
  delete: (node, context) => `~~${context.renderChildren(node)}~~`,
  heading: (node, context) => `**${context.renderChildren(node)}**`,
  inlineCode: (node) => `\`${node.value}\``,
  code: (node) => `\`\`\`${node.lang ?? ""}\n${node.value}\n\`\`\``,
  link: (node, context) => {
    const label = context.renderChildren(node);
    return label === node.url ? node.url : `[${label}](${node.url})`;
  },
  image: (node) => `![${node.alt ?? ""}](${node.url})`,
  blockquote: (node, context) =>
    context
      .renderChildren(node, "\n\n")
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n"),
  list: renderList,
  listItem: (node, context) => context.renderChildren(node, "\n"),
  thematicBreak: () => "---",
  break: () => "\n",
  html: (node) => node.value,
  table: (node, context) => {
    const rows = node.children.map((row) => row.children.map((cell) => cellText(cell, context)));
    const [header = [], ...body] = rows;
    const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
    return [line(header), line(header.map(() => "---")), ...body.map(line)].join("\n");
  },
};

/** Named HTML entities Teams sends; numeric ones are decoded generically. */
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/**
 * The character of a numeric reference, as HTML decodes it: a code point that is no Unicode
 * scalar value — zero, a surrogate, or above U+10FFFF (`&#99999999;`) — is U+FFFD.
 */
function codePointText(codePoint: number): string {
  const valid =
    Number.isSafeInteger(codePoint) &&
    codePoint > 0 &&
    codePoint <= 0x10ffff &&
    (codePoint < 0xd800 || codePoint > 0xdfff);
  return String.fromCodePoint(valid ? codePoint : 0xfffd);
}

/**
 * Decodes HTML entities (`&amp;`, `&#39;`, `&#x1F600;`). Never throws: a numeric reference to
 * no character becomes U+FFFD, an unknown name stays as written.
 */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) {
      return codePointText(Number.parseInt(name.slice(2), 16));
    }
    if (name.startsWith("#")) return codePointText(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? match;
  });
}

/**
 * Teams' message HTML → markdown: `<at>` mentions as `@name`, inline tags as their markdown
 * marks, `<pre>` as fences, block tags as line breaks; every other tag is dropped (repeatedly,
 * so nested or split tags leave none behind) and entities are decoded last, so an escaped
 * `&lt;b&gt;` stays text.
 */
export function teamsHtmlToMarkdown(html: string): string {
  let text = html
    .replace(/<at[^>]*>(.*?)<\/at>/gis, "@$1")
    .replace(/<(b|strong)>(.*?)<\/\1>/gis, "**$2**")
    .replace(/<(i|em)>(.*?)<\/\1>/gis, "_$2_")
    .replace(/<(s|strike|del)>(.*?)<\/\1>/gis, "~~$2~~")
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gis, "[$2]($1)")
    .replace(/<pre[^>]*>(?:<code[^>]*>)?(.*?)(?:<\/code>)?<\/pre>/gis, "\n```\n$1\n```\n")
    .replace(/<code>(.*?)<\/code>/gis, "`$1`")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li)>/gi, "\n");
  let previous: string;
  do {
    previous = text;
    text = text.replace(/<\/?[a-z][^<>]*>/gi, "");
  } while (text !== previous);
  return decodeHtmlEntities(text).trim();
}

/**
 * Markdown for Teams (upstream `TeamsFormatConverter`): outbound text in Teams' markdown subset
 * with `<at>` mentions; inbound message HTML parsed back to markdown.
 */
export class TeamsFormatConverter extends BaseFormatConverter {
  fromAst(ast: Root): string {
    return this.fromAstWithRenderers(ast, TEAMS_RENDERERS);
  }

  toAst(platformText: string): Root {
    return parseMarkdown(teamsHtmlToMarkdown(platformText));
  }

  /** Strings and `{ raw }` keep their text but get `<at>` mentions, as upstream. */
  override renderPostable(message: RenderablePostable): string {
    if (typeof message === "string") return toTeamsMentions(message);
    if (typeof message === "object" && message !== null && "raw" in message) {
      return toTeamsMentions(message.raw);
    }
    return super.renderPostable(message);
  }
}
