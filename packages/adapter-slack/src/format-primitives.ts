import { escapeSlackText, unescapeSlackText } from "./format.js";

/** Slack's text object limit: 1 to 3 000 characters. */
const TEXT_OBJECT_MAX_CHARS = 3_000;
/** What a Slack id looks like (users, channels, user groups). */
const SLACK_ID = /^[A-Z0-9_]+$/;

/** A Block Kit `plain_text` object. */
export interface SlackPlainTextObject {
  readonly type: "plain_text";
  readonly text: string;
  readonly emoji?: boolean;
}

/** A Block Kit `mrkdwn` object. */
export interface SlackMrkdwnTextObject {
  readonly type: "mrkdwn";
  readonly text: string;
  readonly verbatim?: boolean;
}

function checkTextObject(text: string): void {
  if (text.length === 0 || text.length > TEXT_OBJECT_MAX_CHARS) {
    throw new TypeError(`text must be between 1 and ${TEXT_OBJECT_MAX_CHARS} characters`);
  }
}

function checkId(value: string, what: string): string {
  if (!SLACK_ID.test(value)) throw new TypeError(`${what} must be a Slack ID`);
  return value;
}

function checkNo(pattern: RegExp, value: string, what: string, kind: string): string {
  if (pattern.test(value)) throw new TypeError(`${what} cannot contain Slack ${kind}`);
  return value;
}

/** A `plain_text` object; throws a TypeError outside Slack's 1–3 000 characters. */
export function createSlackPlainText(
  text: string,
  options: { emoji?: boolean } = {},
): SlackPlainTextObject {
  checkTextObject(text);
  return options.emoji === undefined
    ? { type: "plain_text", text }
    : { type: "plain_text", text, emoji: options.emoji };
}

/** A `mrkdwn` object; throws a TypeError outside Slack's 1–3 000 characters. */
export function createSlackMrkdwn(
  text: string,
  options: { verbatim?: boolean } = {},
): SlackMrkdwnTextObject {
  checkTextObject(text);
  return options.verbatim === undefined
    ? { type: "mrkdwn", text }
    : { type: "mrkdwn", text, verbatim: options.verbatim };
}

/** `<@U…>`; throws a TypeError when `userId` is not a Slack id. */
export function formatSlackUser(userId: string): string {
  return `<@${checkId(userId, "userId")}>`;
}

/** `<#C…>`; throws a TypeError when `channelId` is not a Slack id. */
export function formatSlackChannel(channelId: string): string {
  return `<#${checkId(channelId, "channelId")}>`;
}

/** `<!subteam^S…>`; throws a TypeError when `userGroupId` is not a Slack id. */
export function formatSlackUserGroup(userGroupId: string): string {
  return `<!subteam^${checkId(userGroupId, "userGroupId")}>`;
}

/** `<!here>`, `<!channel>` or `<!everyone>`. */
export function formatSlackSpecialMention(mention: "channel" | "everyone" | "here"): string {
  return `<!${mention}>`;
}

/** `<url>` or `<url|label>` (label escaped); a URL with `<`, `>` or `|` is refused. */
export function formatSlackLink(url: string, label?: string): string {
  checkNo(/[<>|]/, url, "url", "control characters");
  return label ? `<${url}|${escapeSlackText(label)}>` : `<${url}>`;
}

/**
 * Slack's date token `<!date^{seconds}^{token}[^{link}]|{fallback}>`: readers see the date in
 * their own time zone. `timestamp` is a Date or whole unix seconds; `^`, `|` and `>` are refused in
 * the token and the link.
 */
export function formatSlackDate(
  timestamp: Date | number,
  token: string,
  fallback: string,
  options: { link?: string } = {},
): string {
  const dateControl = /[\^|>]/;
  checkNo(dateControl, token, "token", "date control characters");
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1_000) : timestamp;
  if (!Number.isInteger(seconds)) {
    throw new TypeError("timestamp must be an integer unix timestamp or Date");
  }
  const link = options.link
    ? `^${checkNo(dateControl, options.link, "link", "date control characters")}`
    : "";
  return `<!date^${seconds}^${token}${link}|${escapeSlackText(fallback)}>`;
}

/**
 * Markdown from mrkdwn, token by token (upstream's primitive; the converter's `toMarkdown` parses
 * code spans as well): labeled channels keep their id (`#general (C1)`), a token written
 * label-first (`<label|https://…>`) is read as the link it means, `*b*` becomes `**b**`.
 */
export function slackMrkdwnToMarkdown(mrkdwn: string): string {
  const markdown = mrkdwn
    .replace(/<@([A-Z0-9_]+)\|([^<>]+)>/g, "@$2")
    .replace(/<@([A-Z0-9_]+)>/g, "@$1")
    .replace(/<#([A-Z0-9_]+)\|([^<>]+)>/g, "#$2 ($1)")
    .replace(/<#([A-Z0-9_]+)>/g, "#$1")
    .replace(/<(?!https?:\/\/)([^<>|]+)\|(https?:\/\/[^|<>]+)>/g, "[$1]($2)")
    .replace(/<(https?:\/\/[^|<>]+)\|([^<>]+)>/g, "[$2]($1)")
    .replace(/<(https?:\/\/[^<>]+)>/g, "$1")
    .replace(/(?<![_*\\])\*([^*\n]+)\*(?![_*])/g, "**$1**")
    .replace(/(?<!~)~([^~\n]+)~(?!~)/g, "~~$1~~");
  return unescapeSlackText(markdown);
}

/** `**bold**` as Slack's `*bold*`, leaving the rest of the markdown as it is. */
export function markdownBoldToSlackMrkdwn(markdown: string): string {
  return markdown.replace(/\*\*(.+?)\*\*/g, "*$1*");
}

/** Bare `@U123` tokens as `<@U123>` mentions; `a@B.com` and existing `<@U1>` stay as written. */
export function linkBareSlackMentions(text: string): string {
  return text.replace(/(?<![<\w])@([A-Z][A-Z0-9_]+)/g, "<@$1>");
}
