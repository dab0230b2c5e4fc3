/** What {@link checkMarkdownV2} found: the text a user would see, or Telegram's refusal. */
export type MarkdownV2Check =
  | { readonly ok: true; readonly visible: string }
  | { readonly ok: false; readonly error: string };

const RESERVED = new Set("_*[]()~`>#+-=|{}.!");

function byteOffset(text: string, index: number): number {
  return new TextEncoder().encode(text.slice(0, index)).byteLength;
}

function reserved(text: string, index: number): MarkdownV2Check {
  return {
    ok: false,
    error: `can't parse entities: Character '${text[index]}' is reserved and must be escaped with the preceding '\\'`,
  };
}

function unclosed(text: string, index: number): MarkdownV2Check {
  return {
    ok: false,
    error: `can't parse entities: Can't find end of the entity starting at byte offset ${byteOffset(text, index)}`,
  };
}

/**
 * Parses MarkdownV2 the way the Bot API does (written from its documented rules, independent of
 * the adapter's renderer): a backslash escapes any ASCII character; `*` `_` `__` `~` `||` toggle
 * entities, which must nest; `` ` `` and ``` ``` ``` open code in which only `` ` `` and `\` are
 * escaped; `[label](url)` is a link whose URL escapes `)` and `\`; `>` opens a quote at a line
 * start. Any other reserved character unescaped, an unfinished entity, or a dangling backslash
 * is refused with Telegram's "can't parse entities" wording.
 */
export function checkMarkdownV2(text: string): MarkdownV2Check {
  const open: { marker: string; at: number }[] = [];
  let visible = "";
  let index = 0;
  let lineStart = true;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === "\\") {
      const next = text[index + 1];
      if (next === undefined || next.charCodeAt(0) > 126) return reserved(text, index);
      visible += next;
      index += 2;
      lineStart = false;
      continue;
    }
    if (char === "`") {
      const fence = text.startsWith("```", index) ? "```" : "`";
      let cursor = index + fence.length;
      if (fence === "```") {
        while (cursor < text.length && text[cursor] !== "\n" && text[cursor] !== "`") cursor += 1;
      }
      let closed = -1;
      for (let at = cursor; at < text.length; at += 1) {
        if (text[at] === "\\") {
          at += 1;
          continue;
        }
        if (text.startsWith(fence, at)) {
          closed = at;
          break;
        }
      }
      if (closed === -1) return unclosed(text, index);
      visible += text.slice(cursor, closed).replace(/\\([`\\])/g, "$1");
      index = closed + fence.length;
      lineStart = false;
      continue;
    }
    if (char === "[") {
      open.push({ marker: "[", at: index });
      index += 1;
      lineStart = false;
      continue;
    }
    if (char === "]") {
      if (open.at(-1)?.marker !== "[" || text[index + 1] !== "(") return reserved(text, index);
      let closed = -1;
      for (let at = index + 2; at < text.length; at += 1) {
        if (text[at] === "\\") {
          at += 1;
          continue;
        }
        if (text[at] === ")") {
          closed = at;
          break;
        }
      }
      if (closed === -1) return unclosed(text, index);
      open.pop();
      index = closed + 1;
      continue;
    }
    if (char === ">" && lineStart) {
      index += 1;
      lineStart = false;
      continue;
    }
    const marker = text.startsWith("||", index)
      ? "||"
      : text.startsWith("__", index)
        ? "__"
        : ["*", "_", "~"].includes(char)
          ? char
          : undefined;
    if (marker !== undefined) {
      const top = open.at(-1);
      if (top?.marker === marker) open.pop();
      else if (open.some((entry) => entry.marker === marker)) return unclosed(text, index);
      else open.push({ marker, at: index });
      index += marker.length;
      lineStart = false;
      continue;
    }
    if (RESERVED.has(char)) return reserved(text, index);
    visible += char;
    lineStart = char === "\n";
    index += 1;
  }
  const first = open[0];
  if (first !== undefined) return unclosed(text, first.at);
  return { ok: true, visible };
}

/** What Telegram's HTML parse mode would show; refuses unknown or unclosed tags. */
export function checkTelegramHtml(text: string): MarkdownV2Check {
  const allowed = new Set([
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "a",
    "code",
    "pre",
    "tg-spoiler",
    "blockquote",
    "span",
  ]);
  const stack: string[] = [];
  let visible = "";
  const pattern = /<\/?([a-z-]+)[^>]*>|&(amp|lt|gt|quot);|[<>&]/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    visible += text.slice(last, match.index);
    last = (match.index ?? 0) + match[0].length;
    const [whole, tag, entity] = match;
    if (entity !== undefined) {
      visible += { amp: "&", lt: "<", gt: ">", quot: '"' }[entity];
      continue;
    }
    if (tag === undefined) {
      return {
        ok: false,
        error: `can't parse entities: Unexpected character ${JSON.stringify(whole)}`,
      };
    }
    if (!allowed.has(tag))
      return { ok: false, error: `can't parse entities: Unsupported start tag "${tag}"` };
    if (whole.startsWith("</")) {
      if (stack.pop() !== tag)
        return { ok: false, error: `can't parse entities: Unmatched end tag "${tag}"` };
    } else stack.push(tag);
  }
  visible += text.slice(last);
  if (stack.length > 0) return { ok: false, error: "can't parse entities: Can't find end tag" };
  return { ok: true, visible };
}
