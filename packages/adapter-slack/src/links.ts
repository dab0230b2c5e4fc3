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

/** The longest URL read as a link: anything longer is not a link a person shared. */
export const MAX_LINK_LENGTH = 2_048;

/** What Slack's unfurl of a URL says about it (an attachment with `from_url`). */
type Unfurl = Pick<LinkPreview, "title" | "description" | "imageUrl" | "siteName">;

/** A URL as unfurls are matched: without a trailing slash, so `x.com/` and `x.com` meet. */
function unfurlKey(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}

function textField(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The unfurls among a message's attachments, by URL: the attachments Slack (or an app) adds for a
 * link, naming it in `from_url` (`original_url` for some), with its title, text, image and the
 * site's name.
 */
export function slackUnfurlsOf(attachments: unknown): Map<string, Unfurl> {
  const unfurls = new Map<string, Unfurl>();
  if (!Array.isArray(attachments)) return unfurls;
  for (const attachment of attachments) {
    if (typeof attachment !== "object" || attachment === null) continue;
    const value = attachment as Json;
    const url = textField(value.from_url) ?? textField(value.original_url);
    if (url === undefined || url.length > MAX_LINK_LENGTH) continue;
    const unfurl: Unfurl = {};
    const title = textField(value.title);
    const description = textField(value.text);
    const imageUrl = textField(value.image_url) ?? textField(value.thumb_url);
    const siteName = textField(value.service_name);
    if (title !== undefined) unfurl.title = title;
    if (description !== undefined) unfurl.description = description;
    if (imageUrl !== undefined) unfurl.imageUrl = imageUrl;
    if (siteName !== undefined) unfurl.siteName = siteName;
    if (!unfurls.has(unfurlKey(url))) unfurls.set(unfurlKey(url), { ...unfurl });
  }
  return unfurls;
}

/**
 * The links of a Slack message: from its `rich_text` blocks when it has any (Slack's own
 * structure), else from the `<url>` sequences of its text, then the URLs only its unfurls name;
 * each URL once, in order of appearance, none longer than {@link MAX_LINK_LENGTH}. A link Slack
 * unfurled carries the unfurl's title, description, image and site name (a trailing slash does
 * not keep them apart). With `fetchLinked`, a link to a Slack message gets a `fetchMessage`.
 */
export function slackLinksOf(
  event: { text?: unknown; blocks?: unknown; attachments?: unknown },
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
  const unfurls = slackUnfurlsOf(event.attachments);
  const seen = new Set(urls.map(unfurlKey));
  for (const key of unfurls.keys()) if (!seen.has(key)) urls.push(key);
  return [...new Set(urls)]
    .filter((url) => url.length <= MAX_LINK_LENGTH)
    .map((url) => {
      const preview: LinkPreview = { url, ...unfurls.get(unfurlKey(url)) };
      const linked = slackMessageOfLink(url);
      if (fetchLinked === undefined || linked === undefined) return preview;
      return { ...preview, fetchMessage: () => fetchLinked(linked) };
    });
}
