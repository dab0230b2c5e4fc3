/**
 * Finds the bare `@name` mentions a bot wrote in outbound text, the way a reader sees them: not in
 * code (inline or fenced), not in URLs (with a scheme, or a `host.tld/…` path), not in Slack's
 * `<…>` tokens, not in email addresses. One pass over the text: a `<` that never closes is read
 * as text up to the end of its line, and is not scanned again for each `<` in it.
 */

/** What to write for one mention (`name` without the `@`); undefined keeps the text as it is. */
export type MentionReplacer = (name: string) => string | undefined;

function isLetter(char: string | undefined): boolean {
  return char !== undefined && /[A-Za-z]/.test(char);
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /\w/.test(char);
}

function isHostChar(char: string | undefined): boolean {
  return char !== undefined && /[A-Za-z0-9.-]/.test(char);
}

function isBoundary(char: string | undefined): boolean {
  return char === undefined || char === "<" || char === ">" || /\s/.test(char);
}

/** The end of a code span or fence starting at `at`, or `at` when none starts (or closes) there. */
function codeEnd(text: string, at: number): number {
  if (text[at] !== "`") return at;
  const marker = text.startsWith("```", at) ? "```" : "`";
  const close = text.indexOf(marker, at + marker.length);
  if (close === -1) return at;
  // An inline span closes on its own line; a backtick left open is a literal backtick.
  if (marker === "`" && text.slice(at + 1, close).includes("\n")) return at;
  return close + marker.length;
}

/** The end of an `http(s)://` URL starting at `at`, or `at`. */
function urlEnd(text: string, at: number): number {
  const head = text.slice(at, at + 8).toLowerCase();
  const scheme = head.startsWith("https://") ? 8 : head.startsWith("http://") ? 7 : 0;
  if (scheme === 0) return at;
  let cursor = at + scheme;
  while (!isBoundary(text[cursor])) cursor += 1;
  return cursor;
}

/**
 * The end of a schemeless `host.tld/…` (or `?…`, `#…`) reference starting at `at`, or `at`. Only
 * where a host can start (not in the middle of one), and only with a letters-only TLD of two or
 * more, so `example.com,@ann` is a host followed by a mention.
 */
function hostPathEnd(text: string, at: number): number {
  if (!/[A-Za-z0-9]/.test(text[at] ?? "") || isHostChar(text[at - 1])) return at;
  let cursor = at;
  while (isHostChar(text[cursor])) cursor += 1;
  const separator = text[cursor];
  if (separator !== "/" && separator !== "?" && separator !== "#") return at;
  const host = text.slice(at, cursor);
  const dot = host.lastIndexOf(".");
  const tld = host.slice(dot + 1);
  if (dot <= 0 || tld.length < 2 || ![...tld].every(isLetter)) return at;
  cursor += 1;
  while (!isBoundary(text[cursor])) cursor += 1;
  return cursor;
}

/** Rewrites each bare mention in `text` with `replace`; everything else is kept byte for byte. */
export function replaceBareMentions(text: string, replace: MentionReplacer): string {
  let out = "";
  let at = 0;
  // Up to here a `<` is known not to close on its line: read it as a plain character.
  let openAngleUntil = -1;
  while (at < text.length) {
    const char = text[at];
    const code = codeEnd(text, at);
    if (code > at) {
      out += text.slice(at, code);
      at = code;
      continue;
    }
    if (char === "<" && at >= openAngleUntil) {
      let cursor = at + 1;
      while (cursor < text.length && !">\n\r".includes(text[cursor] as string)) cursor += 1;
      if (text[cursor] === ">") {
        out += text.slice(at, cursor + 1);
        at = cursor + 1;
        continue;
      }
      openAngleUntil = cursor;
    }
    const skip = Math.max(urlEnd(text, at), hostPathEnd(text, at));
    if (skip > at) {
      out += text.slice(at, skip);
      at = skip;
      continue;
    }
    const before = text[at - 1];
    if (char === "@" && before !== "<" && !isWordChar(before) && isWordChar(text[at + 1])) {
      let cursor = at + 1;
      while (isWordChar(text[cursor])) cursor += 1;
      const name = text.slice(at + 1, cursor);
      out += replace(name) ?? `@${name}`;
      at = cursor;
      continue;
    }
    out += char;
    at += 1;
  }
  return out;
}

/** The distinct names of the bare mentions in `text`, in order of first appearance. */
export function bareMentionNames(text: string): string[] {
  const names = new Set<string>();
  replaceBareMentions(text, (name) => {
    names.add(name);
    return undefined;
  });
  return [...names];
}
