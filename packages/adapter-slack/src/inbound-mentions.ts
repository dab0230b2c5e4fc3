import type { UserInfo } from "@baton/core";

/**
 * What the adapter already knows about Slack's users and channels, read without asking Slack:
 * the inbound path before the webhook's answer may only look here.
 */
export interface SlackNameSnapshot {
  /** The cached user, or undefined when the cache has no (live) answer for the id. */
  user(userId: string): UserInfo | undefined;
  /** The cached channel name (without `#`), or undefined. */
  channelName(channelId: string): string | undefined;
}

const CODE = /(```[\s\S]*?```|`[^`\n]+`)/g;
const USER_TOKEN = /<@([UW][A-Z0-9_]+)>/g;
const CHANNEL_TOKEN = /<#(C[A-Z0-9_]+)>/g;

/** A label Slack's token syntax can carry: no `<`, `>` or `|`, and `&` escaped as Slack does. */
function label(name: string): string {
  return name.replace(/[<>|]/g, "").replace(/&/g, "&amp;").trim();
}

/** The ids of mentioned users and channels in mrkdwn text, outside code. */
export function slackMentionIds(text: string): { users: string[]; channels: string[] } {
  const users = new Set<string>();
  const channels = new Set<string>();
  text.split(CODE).forEach((part, index) => {
    if (index % 2 === 1) return;
    for (const match of part.matchAll(USER_TOKEN)) users.add(match[1] as string);
    for (const match of part.matchAll(CHANNEL_TOKEN)) channels.add(match[1] as string);
  });
  return { users: [...users], channels: [...channels] };
}

/**
 * mrkdwn with unlabeled `<@U…>` and `<#C…>` tokens given the names the snapshot has
 * (`<@U1|Ann>`, `<#C1|general>`), so the converter reads them as `@Ann` and `#general`. The bot's
 * own ids (`selfIds`) and ids the snapshot lacks stay as they are (read as `@U…` / `#C…`); tokens
 * already labeled and code are left alone.
 */
export function labelSlackMentions(
  text: string,
  names: SlackNameSnapshot,
  selfIds: ReadonlySet<string>,
): string {
  if (!text.includes("<@") && !text.includes("<#")) return text;
  return text
    .split(CODE)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      return part
        .replace(USER_TOKEN, (token, id: string) => {
          if (selfIds.has(id)) return token;
          const name = names.user(id)?.userName;
          const text = name === undefined ? "" : label(name);
          return text === "" ? token : `<@${id}|${text}>`;
        })
        .replace(CHANNEL_TOKEN, (token, id: string) => {
          const name = names.channelName(id);
          const text = name === undefined ? "" : label(name);
          return text === "" ? token : `<#${id}|${text}>`;
        });
    })
    .join("");
}
