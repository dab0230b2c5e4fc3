import type { ActionsElement, CardChild, CardElement } from "../content/cards/card-types.js";
import type { StateAdapter } from "../contracts/state.js";

/** The State key prefix of a callback token, upstream's: `chat:callback:{token}`. */
export const CALLBACK_KEY_PREFIX = "chat:callback:";

/** How a button's value says "resolve my callback token": upstream's `__cb:{token}`. */
export const CALLBACK_VALUE_PREFIX = "__cb:";

/** How long a callback token stays valid: upstream's 7 days. */
export const CALLBACK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where a button's click is accepted: the thread it was posted to, or a channel. */
export type CallbackScope = {
  readonly type: "thread" | "channel";
  readonly id: string;
};

/** What the State keeps for a callback token until the button is clicked. */
export type StoredCallback = {
  actionId: string;
  /** Where a click is POSTed. */
  url: string;
  /** The button's own `value`, handed back to the action handler. */
  originalValue?: string;
  scope: CallbackScope;
};

/** A fresh token: 16 hex characters from a random UUID (upstream's length). */
export type TokenSource = () => string;

const randomToken: TokenSource = () => crypto.randomUUID().replaceAll("-", "").slice(0, 16);

/**
 * The card with every button that has a `callbackUrl` rewritten for posting: the URL is kept in
 * the State under a new token (with the button's id, value and `scope`, for 7 days), the button
 * loses `callbackUrl` and its `value` becomes `__cb:{token}`, so the URL never reaches the
 * platform. Buttons in Actions rows at any depth of sections are covered. A card without such
 * buttons is returned as the same object, and nothing is written.
 */
export async function encodeCardCallbackUrls(
  card: CardElement,
  state: StateAdapter,
  scope: CallbackScope,
  newToken: TokenSource = randomToken,
): Promise<CardElement> {
  if (!hasCallbackButtons(card.children)) return card;
  return { ...card, children: await encodeChildren(card.children, state, scope, newToken) };
}

/** The token a button value carries, or `undefined` for a value that is not a callback token. */
export function decodeCallbackValue(value: string | undefined): string | undefined {
  if (value === undefined || !value.startsWith(CALLBACK_VALUE_PREFIX)) return undefined;
  return value.slice(CALLBACK_VALUE_PREFIX.length);
}

function hasCallbackButtons(children: readonly CardChild[]): boolean {
  return children.some((child) => {
    if (child.type === "actions") {
      return child.children.some((el) => el.type === "button" && Boolean(el.callbackUrl));
    }
    return child.type === "section" && hasCallbackButtons(child.children);
  });
}

async function encodeChildren(
  children: readonly CardChild[],
  state: StateAdapter,
  scope: CallbackScope,
  newToken: TokenSource,
): Promise<CardChild[]> {
  const result: CardChild[] = [];
  // One at a time: the writes are few, and their order then matches the card's.
  for (const child of children) {
    if (child.type === "actions") {
      result.push(await encodeActions(child, state, scope, newToken));
    } else if (child.type === "section") {
      result.push({
        ...child,
        children: await encodeChildren(child.children, state, scope, newToken),
      });
    } else {
      result.push(child);
    }
  }
  return result;
}

async function encodeActions(
  actions: ActionsElement,
  state: StateAdapter,
  scope: CallbackScope,
  newToken: TokenSource,
): Promise<ActionsElement> {
  const children: ActionsElement["children"] = [];
  for (const element of actions.children) {
    if (element.type !== "button" || !element.callbackUrl) {
      children.push(element);
      continue;
    }
    const token = newToken();
    const stored: StoredCallback = { actionId: element.id, url: element.callbackUrl, scope };
    if (element.value !== undefined) stored.originalValue = element.value;
    await state.set(`${CALLBACK_KEY_PREFIX}${token}`, stored, CALLBACK_TTL_MS);
    const { callbackUrl: _url, ...button } = element;
    children.push({ ...button, value: `${CALLBACK_VALUE_PREFIX}${token}` });
  }
  return { ...actions, children };
}
