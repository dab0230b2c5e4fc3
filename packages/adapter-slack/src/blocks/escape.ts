/**
 * `text` with every `&`, `<` and `>` escaped, mention tokens included: it shows literally in
 * mrkdwn and pings no one (`<!channel>` typed by a user stays text).
 */
export function escapeSlackLiteral(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Escaped text cut to `max` characters ending with "…" when cut; an entity cut in half (`&am`)
 * is dropped rather than shown as text.
 */
export function truncateEscapedSlackText(escaped: string, max: number): string {
  if (escaped.length <= max) return escaped;
  return `${escaped.slice(0, max - 1).replace(/&[a-z]*$/, "")}…`;
}
