import { isCardPost, resolveCardPost } from "../content/cards/card-post.js";
import type { Adapter } from "../contracts/adapter.js";
import { capabilitiesOf } from "../contracts/capabilities.js";
import type { AdapterPostableMessage, FileUpload } from "../contracts/postable-message.js";
import type { StateAdapter } from "../contracts/state.js";
import { isBatonError, NotSupportedError, ValidationError } from "../errors/index.js";
import { type CallbackScope, encodeCardCallbackUrls } from "./callback-urls.js";
import { assertFiles, assertPostable, hasFiles } from "./postable.js";

/** Where a postable goes, for {@link preparePostable}. */
export interface PrepareContext {
  readonly adapter: Adapter;
  readonly state: StateAdapter;
  /** Where a click on one of the card's callback buttons is accepted. */
  readonly scope: CallbackScope;
  /** Names the call in errors: `post message to slack:C1:T1`. */
  readonly step: string;
}

/**
 * Turns what a handler posts (anything but a stream) into what the adapter receives, before any
 * platform call, or throws:
 * - a card (a `CardElement`, a `<Card>` JSX tree, `{ card, fallbackText? }`) is validated and JSX
 *   resolved; on an adapter with `cards` its callback buttons are encoded (see
 *   `encodeCardCallbackUrls`) and it is sent as a card, in the shape it was given; on one without,
 *   it is sent as `{ markdown: fallbackText }` — the documented card → text fallback;
 * - every other kind is checked by `assertPostable` (a `ValidationError` naming the bad field);
 * - files on an adapter without `files` raise a `NotSupportedError` (no fallback: a file left out
 *   silently would be a message the user never gets).
 */
export async function preparePostable(
  input: unknown,
  context: PrepareContext,
): Promise<AdapterPostableMessage> {
  const { adapter, step } = context;
  const capabilities = capabilitiesOf(adapter);
  const prepared = isCardPost(input)
    ? await prepareCard(input, context, capabilities.cards)
    : assertPostable(input, step);
  if (hasFiles(prepared) && !capabilities.files) {
    throw new NotSupportedError(adapter.name, "files", { step });
  }
  return prepared;
}

async function prepareCard(
  input: Parameters<typeof resolveCardPost>[0],
  context: PrepareContext,
  cards: boolean,
): Promise<AdapterPostableMessage> {
  const { step } = context;
  let resolved: ReturnType<typeof resolveCardPost>;
  try {
    resolved = resolveCardPost(input);
  } catch (error) {
    if (isBatonError(error)) throw new ValidationError(error.message, { step, cause: error });
    throw error;
  }
  const wrapper = "card" in input ? (input as { fallbackText?: string; files?: FileUpload[] }) : {};
  assertFiles(wrapper.files, step);
  const files = wrapper.files === undefined ? {} : { files: wrapper.files };
  if (!cards) return { markdown: resolved.fallbackText, ...files };
  const card = await encodeCardCallbackUrls(resolved.card, context.state, context.scope);
  if (!("card" in input)) return card;
  const fallback = wrapper.fallbackText === undefined ? {} : { fallbackText: wrapper.fallbackText };
  return { card, ...fallback, ...files };
}
