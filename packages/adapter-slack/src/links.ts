import type { LinkPreview } from "@baton/core";

type Json = Record<string, unknown>;

/** `<https://…>` and `<https://…|label>` in mrkdwn; mentions (`<@U…>`, `<#C…>`) are not links. */
const TEXT_LINK = /<((?:https?|mailto):[^|<>\s]+)(?:\|[^<>]*)?>/g;

function richTextUrls(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const child of node) richTextUrls(child, out);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const value = node as Json;
  if (value.type === "link" && typeof value.url === "string") out.push(value.url);
  if (Array.isArray(value.elements)) richTextUrls(value.elements, out);
}

/**
 * The links of a Slack message: from its `rich_text` blocks when it has any (Slack's own
 * structure), else from the `<url>` sequences of its text; each URL once, in order of appearance.
 */
export function slackLinksOf(event: { text?: unknown; blocks?: unknown }): LinkPreview[] {
  const urls: string[] = [];
  const blocks = Array.isArray(event.blocks)
    ? event.blocks.filter((block) => (block as Json)?.type === "rich_text")
    : [];
  if (blocks.length > 0) richTextUrls(blocks, urls);
  else if (typeof event.text === "string") {
    for (const match of event.text.matchAll(TEXT_LINK)) urls.push(match[1] as string);
  }
  return [...new Set(urls)].map((url) => ({ url }));
}
