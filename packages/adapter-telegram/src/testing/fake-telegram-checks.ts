import { type Answer, fail } from "./fake-telegram-http.js";
import { checkMarkdownV2, checkTelegramHtml } from "./markdown-v2-check.js";

/** The longest message text Telegram accepts, in visible characters. */
export const MESSAGE_LIMIT = 4_096;
/** The longest media caption Telegram accepts, in visible characters. */
export const CAPTION_LIMIT = 1_024;
const CALLBACK_DATA_LIMIT = 64;

/**
 * The text Telegram would show for `text` under `parseMode`, or the 400 Telegram answers when it
 * cannot parse the entities or the visible text is longer than `limit`.
 */
export function checkText(text: string, parseMode: unknown, limit: number): Answer | string {
  let visible = text;
  if (parseMode === "MarkdownV2" || parseMode === "HTML") {
    const checked = parseMode === "HTML" ? checkTelegramHtml(text) : checkMarkdownV2(text);
    if (!checked.ok) return fail(400, `Bad Request: ${checked.error}`);
    visible = checked.visible;
  } else if (parseMode !== undefined) {
    return fail(400, `Bad Request: unsupported parse_mode "${String(parseMode)}"`);
  }
  if (visible.length > limit) {
    return fail(
      400,
      limit === MESSAGE_LIMIT
        ? "Bad Request: message is too long"
        : "Bad Request: message caption is too long",
    );
  }
  return visible;
}

/** The 400 Telegram answers when a button's `callback_data` is over 64 bytes, else `undefined`. */
export function checkMarkup(markup: unknown): Answer | undefined {
  const parsed = typeof markup === "string" ? JSON.parse(markup) : markup;
  const rows = (parsed as { inline_keyboard?: unknown[][] } | undefined)?.inline_keyboard ?? [];
  for (const row of rows) {
    for (const button of row as { callback_data?: string }[]) {
      const data = button.callback_data;
      if (data !== undefined && Buffer.byteLength(data) > CALLBACK_DATA_LIMIT) {
        return fail(400, "Bad Request: BUTTON_DATA_INVALID");
      }
    }
  }
  return undefined;
}
