import { randomBytes } from "node:crypto";
import {
  type ActionsChild,
  type CardChild,
  type CardElement,
  cardToFallbackText,
  ValidationError,
} from "@baton/core";
import { TelegramFormatConverter } from "./format.js";

/** One button of an inline keyboard: a callback button or a URL button. */
export type TelegramInlineButton =
  | { readonly text: string; readonly callback_data: string }
  | { readonly text: string; readonly url: string };

/** Telegram's `InlineKeyboardMarkup`: rows of buttons under a message. */
export interface TelegramInlineKeyboard {
  readonly inline_keyboard: readonly (readonly TelegramInlineButton[])[];
}

/** Telegram's limit on a button's `callback_data`, in bytes. */
export const TELEGRAM_CALLBACK_DATA_LIMIT = 64;

/** The action id of a callback whose data is empty (Telegram allows it). */
export const TELEGRAM_FALLBACK_ACTION_ID = "telegram_callback";

const ENCODED_PREFIX = "chat:";
/** Prefix of a callback whose payload is too long for Telegram and is kept in the State. */
export const STORED_CALLBACK_PREFIX = "chatk:";

/** A decoded callback: the action id `onAction` handlers see, and the button's value. */
export interface TelegramCallbackPayload {
  readonly actionId: string;
  readonly value: string | undefined;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/**
 * `callback_data` for a button: `chat:` + `{"a": actionId, "v": value}`. Throws a
 * `ValidationError` when it exceeds Telegram's 64 bytes (the adapter then keeps the payload in
 * the State behind a short key instead, see {@link STORED_CALLBACK_PREFIX}).
 */
export function encodeTelegramCallbackData(actionId: string, value?: string): string {
  const encoded = `${ENCODED_PREFIX}${JSON.stringify(value === undefined ? { a: actionId } : { a: actionId, v: value })}`;
  if (byteLength(encoded) > TELEGRAM_CALLBACK_DATA_LIMIT) {
    throw new ValidationError(
      `callback_data of action "${actionId}" is ${byteLength(encoded)} bytes; Telegram allows ${TELEGRAM_CALLBACK_DATA_LIMIT}`,
      { step: "encode telegram callback data" },
    );
  }
  return encoded;
}

/**
 * The action a callback carries: an encoded payload as encoded, an empty one as
 * `telegram_callback`, anything else (a button another program made, a malformed payload) as
 * both action id and value, unchanged.
 */
export function decodeTelegramCallbackData(data: string | undefined): TelegramCallbackPayload {
  if (data === undefined || data === "") {
    return { actionId: TELEGRAM_FALLBACK_ACTION_ID, value: undefined };
  }
  if (data.startsWith(ENCODED_PREFIX)) {
    try {
      const parsed = JSON.parse(data.slice(ENCODED_PREFIX.length)) as { a?: unknown; v?: unknown };
      if (
        typeof parsed.a === "string" &&
        (parsed.v === undefined || typeof parsed.v === "string")
      ) {
        return { actionId: parsed.a, value: parsed.v };
      }
    } catch {
      // Not ours after all: fall through to the raw payload.
    }
  }
  return { actionId: data, value: data };
}

/** A fresh key for a payload kept in the State: `chatk:` + 16 url-safe characters. */
export function newStoredCallbackData(): string {
  return `${STORED_CALLBACK_PREFIX}${randomBytes(12).toString("base64url")}`;
}

/** How a button's payload becomes its `callback_data`. */
export type TelegramCallbackEncoder = (actionId: string, value: string | undefined) => string;

function actionRows(children: readonly CardChild[]): ActionsChild[][] {
  const rows: ActionsChild[][] = [];
  for (const child of children) {
    if (child.type === "actions") rows.push([...child.children]);
    if (child.type === "section") rows.push(...actionRows(child.children));
  }
  return rows;
}

/**
 * The card's buttons as an inline keyboard: one row per actions block (also inside sections),
 * callback buttons for buttons, URL buttons for link buttons. Selects and other controls have
 * no inline-keyboard form and are left out; `undefined` when nothing is left.
 */
export function cardToTelegramInlineKeyboard(
  card: CardElement,
  encode: TelegramCallbackEncoder = encodeTelegramCallbackData,
): TelegramInlineKeyboard | undefined {
  const rows: TelegramInlineButton[][] = [];
  for (const controls of actionRows(card.children)) {
    const row: TelegramInlineButton[] = [];
    for (const control of controls) {
      if (control.type === "button" && !control.disabled) {
        row.push({ text: control.label, callback_data: encode(control.id, control.value) });
      } else if (control.type === "link-button") {
        row.push({ text: control.label, url: control.url });
      }
    }
    if (row.length > 0) rows.push(row);
  }
  return rows.length > 0 ? { inline_keyboard: rows } : undefined;
}

/** A keyboard with no buttons: sent with an edit to remove a message's buttons. */
export function emptyTelegramInlineKeyboard(): TelegramInlineKeyboard {
  return { inline_keyboard: [] };
}

const CONVERTER = new TelegramFormatConverter();

/** A card's text as markdown: title in bold, subtitle, body and fields; no buttons. */
export function cardToTelegramMarkdown(card: CardElement): string {
  const { title, subtitle, ...rest } = card;
  const body = cardToFallbackText({ ...rest, type: "card" } as CardElement, { actions: "omit" });
  const head = [title ? `**${title}**` : "", subtitle ?? ""].filter((line) => line !== "");
  return [...head, body].filter((part) => part !== "").join("\n\n");
}

/** A card's text in MarkdownV2; its buttons go to the inline keyboard. */
export function cardToTelegramText(card: CardElement): string {
  return CONVERTER.fromMarkdown(cardToTelegramMarkdown(card));
}
