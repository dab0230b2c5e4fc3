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

/**
 * A small markdown subset as Teams HTML: `**bold**`, `_italic_`, `` `code` `` and links — only
 * http(s) and mailto targets; any other link (`javascript:`, relative) becomes its label.
 */
export function markdownToTeamsHtml(markdown: string): string {
  return escapeTeamsText(markdown)
    .replace(/\[([^\]]*)\]\(([^)\s]*)\)/g, (_m, label: string, url: string) =>
      SAFE_LINK.test(url) ? `<a href="${url}">${label}</a>` : label,
    )
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|\W)_(.+?)_(?=\W|$)/g, "$1<em>$2</em>")
    .replace(/`([^`]+)`/g, "<code>$1</code>");
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
