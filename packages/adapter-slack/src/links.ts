import type { LinkPreview, Message } from "@baton/core";

type Json = Record<string, unknown>;

/** A link to one Slack message: `https://{workspace}.slack.com/archives/{channel}/p{digits}`. */
export interface SlackMessageLink {
  readonly url: string;
  readonly channel: string;
  /** The message's `ts`: the link's digits with a dot before the last six. */
  readonly ts: string;
}

/** Loads the message a link points at; rejects when Slack has none. */
export type SlackLinkedMessageFetcher = (link: SlackMessageLink) => Promise<Message>;

const MESSAGE_PATH = /^\/archives\/([A-Z0-9]+)\/p(\d{7,20})\/?$/;

/**
 * The Slack message a URL points at (Slack's "copy link": any query, such as `thread_ts`, is
 * ignored), or undefined for any other URL. Only hosts under slack.com or slack-gov.com count.
 */
export function slackMessageOfLink(url: string): SlackMessageLink | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  if (!/^(?:[a-z0-9-]+\.)+slack(?:-gov)?\.com$/.test(parsed.hostname)) return undefined;
  const match = MESSAGE_PATH.exec(parsed.pathname);
  if (match === null) return undefined;
  const digits = match[2] as string;
  return { url, channel: match[1] as string, ts: `${digits.slice(0, -6)}.${digits.slice(-6)}` };
}

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
 * With `fetchLinked`, a link to a Slack message gets a `fetchMessage` that loads it.
 */
export function slackLinksOf(
  event: { text?: unknown; blocks?: unknown },
  fetchLinked?: SlackLinkedMessageFetcher,
): LinkPreview[] {
  const urls: string[] = [];
  const blocks = Array.isArray(event.blocks)
    ? event.blocks.filter((block) => (block as Json)?.type === "rich_text")
    : [];
  if (blocks.length > 0) richTextUrls(blocks, urls);
  else if (typeof event.text === "string") {
    for (const match of event.text.matchAll(TEXT_LINK)) urls.push(match[1] as string);
  }
  return [...new Set(urls)].map((url) => {
    const linked = slackMessageOfLink(url);
    if (fetchLinked === undefined || linked === undefined) return { url };
    return { url, fetchMessage: () => fetchLinked(linked) };
  });
}
