import type { Message } from "../model/index.js";

/**
 * Who the bot is on one adapter, as mention detection needs it: the handle people type after `@`
 * and, when the platform has one, the bot's own user id.
 */
export interface BotIdentity {
  /** The bot's handle without the `@` (`acme`). An empty string never matches. */
  userName: string;
  /** The bot's platform user id (`U0BOT`), when the adapter knows it. */
  botUserId?: string;
}

// Upstream `chat` 4.38.1 (dist/index.js, `Chat.detectMention`) treats `@handle` as a mention only
// when the `@` does not follow a word character and the handle is not followed by a word
// character or a hyphen. The leading guard keeps email local parts and URL userinfo
// (`jane@acme.com`, `https://deploy@acme.example.com`) from counting; the trailing guard keeps
// `@acme` from matching `@acme-dev`, `@acmebot` or `@acme_2`, while `@acme[bot]` (GitHub's app
// suffix) and `@acme.` still count. `\w` is ASCII-only here, as it is upstream.
const NOT_AFTER_WORD = "(?<![A-Za-z0-9_])";
const NOT_BEFORE_WORD_OR_HYPHEN = "(?![A-Za-z0-9_-])";

/** Escapes every character that has a meaning in a regular expression. */
function escapeForRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** True when `text` holds `@token` as a standalone handle, compared case-insensitively. */
function hasHandle(text: string, token: string): boolean {
  const handle = new RegExp(
    `${NOT_AFTER_WORD}@${escapeForRegExp(token)}${NOT_BEFORE_WORD_OR_HYPHEN}`,
    "i",
  );
  return handle.test(text);
}

/**
 * True when `text` holds the user-id entity `<@ID>` (or `<@!ID>`, the nickname form upstream also
 * accepts). Platforms that have not resolved their markup to `@name` send mentions this way.
 */
function hasUserIdEntity(text: string, botUserId: string): boolean {
  return new RegExp(`<@!?${escapeForRegExp(botUserId)}>`, "i").test(text);
}

/**
 * The text fallback of mention detection, used only when the adapter left `message.isMention`
 * `undefined` (see {@link resolveIsMention}).
 *
 * Guarantees, matching upstream `chat` 4.38.1:
 * - `@userName` counts, in any letter case, at the start of the text, after whitespace (newlines
 *   included) or after punctuation such as `(`, `:` or `…`, and before whitespace, punctuation or
 *   the end of the text (`@acme,` `@acme.` `@acme[bot]`).
 * - `@botUserId` counts under the same rules, and so do the entities `<@botUserId>` and
 *   `<@!botUserId>`.
 * - Not a mention: the handle glued to a preceding word (`foo@acme`, every email address and URL
 *   userinfo), a longer handle (`@acmebot`, `@acme_2`), a hyphen-suffixed handle or user id
 *   (`@acme-dev`, `@U0BOT-old`), a handle glued to the following word (`@acmehi`), or the bare
 *   name without `@`.
 * - An empty `userName` or `botUserId` never matches, so a misconfigured bot does not answer
 *   every stray `@`.
 *
 * Pure: no I/O, no shared state; the result depends on the arguments only.
 */
export function detectMention(text: string, bot: BotIdentity): boolean {
  if (bot.userName !== "" && hasHandle(text, bot.userName)) return true;
  const id = bot.botUserId;
  if (id === undefined || id === "") return false;
  return hasHandle(text, id) || hasUserIdEntity(text, id);
}

/**
 * Whether `message` mentions the bot. The adapter's explicit `message.isMention` is final, in both
 * directions: it comes from platform metadata (Slack's `app_mention`, Teams' entities), which knows
 * better than the text. Only when it is `undefined` does the text decide, through
 * {@link detectMention} (DESIGN §4.2; the upstream 4.41 rule).
 *
 * Never mutates `message`; the dispatcher decides what to store on it.
 */
export function resolveIsMention(
  message: Pick<Message, "text" | "isMention">,
  bot: BotIdentity,
): boolean {
  if (message.isMention !== undefined) return message.isMention;
  return detectMention(message.text, bot);
}
