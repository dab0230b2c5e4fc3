import {
  BaseFormatConverter,
  type NodeRenderers,
  PLAIN_TEXT_RENDERERS,
  parseMarkdown,
  type RenderablePostable,
} from "@baton/core";
import type { Root } from "mdast";

/**
 * Slack's control sequences that must survive escaping: user, channel and usergroup mentions,
 * special mentions (`<!here>`), and dates. Anything else with `<` or `>` is text.
 */
const CONTROL = /<(?:@[UW][A-Z0-9_]+|#C[A-Z0-9_]+|![a-z]+|!subteam\^[A-Z0-9_]+)(?:\|[^<>]*)?>/g;

/** Escapes `&`, `<` and `>` as Slack asks, keeping its mention sequences intact. */
export function escapeSlackText(text: string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(CONTROL)) {
    out += escapePlain(text.slice(last, match.index));
    out += match[0];
    last = match.index + match[0].length;
  }
  return out + escapePlain(text.slice(last));
}

function escapePlain(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The inverse of Slack's escaping. */
export function unescapeSlackText(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

const SLACK_RENDERERS: NodeRenderers = {
  ...PLAIN_TEXT_RENDERERS,
  text: (node) => escapeSlackText(node.value),
  // Inline HTML in markdown is text to Slack, which renders no HTML.
  html: (node) => escapeSlackText(node.value),
  strong: (node, context) => `*${context.renderChildren(node)}*`,
  emphasis: (node, context) => `_${context.renderChildren(node)}_`,
  delete: (node, context) => `~${context.renderChildren(node)}~`,
  heading: (node, context) => `*${context.renderChildren(node)}*`,
  inlineCode: (node) => `\`${escapePlain(node.value)}\``,
  code: (node) => `\`\`\`\n${escapePlain(node.value)}\n\`\`\``,
  break: () => "\n",
  link: (node, context) => {
    const label = context.renderChildren(node);
    return label === "" || label === escapeSlackText(node.url)
      ? `<${node.url}>`
      : `<${node.url}|${label}>`;
  },
  table: (node, context) => {
    const ascii = PLAIN_TEXT_RENDERERS.table?.(node, context) ?? "";
    return `\`\`\`\n${ascii}\n\`\`\``;
  },
  list: (node, context) => {
    const plain = PLAIN_TEXT_RENDERERS.list?.(node, context) ?? "";
    // Slack shows "- " literally; its own apps write bullets as "•".
    return node.ordered ? plain : plain.replace(/^(\s*)- /gm, "$1• ");
  },
};

/**
 * Markdown from Slack's mrkdwn: mentions become `@U…` / `@name`, channels `#name`, links
 * `[text](url)`, `*bold*` `**bold**`, `_it_` `*it*`, `~s~` `~~s~~`; code spans are left alone.
 */
export function mrkdwnToMarkdown(mrkdwn: string): string {
  // Every message on the webhook path comes through here before the answer: the checks for the
  // characters each step needs skip work (and garbage) that could not change the text.
  if (!mrkdwn.includes("`")) return inlineToMarkdown(mrkdwn);
  return mrkdwn
    .split(/(```[\s\S]*?```|`[^`\n]+`)/g)
    .map((part, index) => (index % 2 === 1 ? unescapeSlackText(part) : inlineToMarkdown(part)))
    .join("");
}

function inlineToMarkdown(text: string): string {
  let out = text;
  if (out.includes("<")) {
    out = out
      .replace(/<@([UW][A-Z0-9_]+)\|([^<>]+)>/g, "@$2")
      .replace(/<@([UW][A-Z0-9_]+)>/g, "@$1")
      .replace(/<#(C[A-Z0-9_]+)\|([^<>]*)>/g, (_m, id: string, name: string) => `#${name || id}`)
      .replace(/<#(C[A-Z0-9_]+)>/g, "#$1")
      .replace(/<!subteam\^[A-Z0-9_]+\|([^<>]+)>/g, "$1")
      .replace(/<!([a-z]+)(?:\|[^<>]*)?>/g, "@$1")
      .replace(/<((?:https?|mailto):[^|<>]+)\|([^<>]+)>/g, "[$2]($1)")
      .replace(/<((?:https?|mailto):[^|<>]+)>/g, "$1");
  }
  if (out.includes("*")) out = out.replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,!?:;])/g, "$1**$2**");
  if (out.includes("_")) out = out.replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,!?:;])/g, "$1*$2*");
  if (out.includes("~")) out = out.replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s).,!?:;])/g, "$1~~$2~~");
  return out.includes("&") ? unescapeSlackText(out) : out;
}

/**
 * mrkdwn ⇄ mdast on core's {@link BaseFormatConverter}. Outbound: Slack's marks, `<url|text>`
 * links, `&`, `<`, `>` escaped (mention sequences such as `<@U123>` kept), tables as monospace
 * blocks. Inbound: mrkdwn read back into markdown and parsed.
 */
export class SlackFormatConverter extends BaseFormatConverter {
  fromAst(ast: Root): string {
    return this.fromAstWithRenderers(ast, SLACK_RENDERERS);
  }

  toAst(platformText: string): Root {
    return parseMarkdown(mrkdwnToMarkdown(platformText));
  }

  /**
   * The `chat.postMessage` text of a postable message: strings and `{ raw }` as given (a string's
   * `*` stays a literal star), markdown and ASTs rendered to mrkdwn. Cards are drawn by
   * `renderSlackMessage`; here they become their fallback text.
   */
  toSlackPayload(message: RenderablePostable): { text: string } {
    return { text: this.renderPostable(message) };
  }

  /** The mrkdwn text for a `response_url` reply (which takes text, not blocks). */
  toResponseUrlText(message: RenderablePostable): string {
    return this.renderPostable(message);
  }
}
