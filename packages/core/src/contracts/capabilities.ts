import { ValidationError } from "../errors/index.js";

/**
 * How an adapter streams a reply: `"native"` through its own `stream` method, `"edit"` by the
 * core's fallback (post once, then edit in place), or `false` when it can do neither (a platform
 * without edits, such as SMS: the core then posts the complete text once the stream ends).
 */
export type StreamingSupport = "native" | "edit" | false;

/**
 * What a platform can do, as its adapter declares it. The core reads these flags before a call:
 * a feature that is `false` either takes its documented fallback (stream → post + edit, card →
 * its text, ephemeral → DM when the caller asked for `fallbackToDM`) or throws a
 * `NotSupportedError` naming the adapter and the feature — never a silent no-op. The adapter
 * conformance suite checks every flag that is `true` against the adapter's behaviour, and every
 * flag that is `false` against a `NotSupportedError`.
 */
export interface AdapterCapabilities {
  /** See {@link StreamingSupport}. `"native"` requires `adapter.stream`. */
  readonly streaming: StreamingSupport;
  /** Renders cards (`{ card }`, a `CardElement`). When false the core posts the card's text. */
  readonly cards: boolean;
  /** Opens modals (`adapter.openModal`). */
  readonly modals: boolean;
  /** Posts messages only one user sees (`adapter.postEphemeral`). */
  readonly ephemeral: boolean;
  /** Schedules posts for later (`adapter.scheduleMessage`). */
  readonly scheduling: boolean;
  /** Adds and removes the bot's reactions (`addReaction`, `removeReaction`). */
  readonly reactions: boolean;
  /** Edits a posted message in place (`editMessage`). */
  readonly editMessage: boolean;
  /** Deletes a posted message (`deleteMessage`). */
  readonly deleteMessage: boolean;
  /** Shows a typing indicator (`startTyping`). */
  readonly typing: boolean;
  /** Serves thread history (`fetchMessages`). */
  readonly history: boolean;
  /** Opens a direct conversation with a user (`adapter.openDM`). */
  readonly openDM: boolean;
  /** Looks users up (`adapter.getUser`). */
  readonly getUser: boolean;
  /** Uploads files with a post (`files` of a postable message). */
  readonly files: boolean;
  /** Marks messages as read (`adapter.markAsRead`). */
  readonly readReceipts: boolean;
  /** Replies to one message natively, as a quote or a threaded reply (`adapter.reply`). */
  readonly replies: boolean;
}

/** The name of one capability; `NotSupportedError.feature` is one of these. */
export type AdapterFeature = keyof AdapterCapabilities;

/** Every capability name, in declaration order. */
export const ADAPTER_FEATURES: readonly AdapterFeature[] = Object.freeze([
  "streaming",
  "cards",
  "modals",
  "ephemeral",
  "scheduling",
  "reactions",
  "editMessage",
  "deleteMessage",
  "typing",
  "history",
  "openDM",
  "getUser",
  "files",
  "readReceipts",
  "replies",
]);

/** A platform that can do nothing beyond posting text: every flag false. */
export const NO_CAPABILITIES: AdapterCapabilities = Object.freeze({
  streaming: false,
  cards: false,
  modals: false,
  ephemeral: false,
  scheduling: false,
  reactions: false,
  editMessage: false,
  deleteMessage: false,
  typing: false,
  history: false,
  openDM: false,
  getUser: false,
  files: false,
  readReceipts: false,
  replies: false,
});

/**
 * Builds a complete, frozen capability set from the flags an adapter has: unnamed flags are
 * `false` (nothing is assumed). Throws a `ValidationError` naming the first flag that is not a
 * boolean (or, for `streaming`, not `"native"`, `"edit"` or `false`), or an unknown flag.
 */
export function defineCapabilities(declared: Partial<AdapterCapabilities>): AdapterCapabilities {
  const step = "define adapter capabilities";
  if (typeof declared !== "object" || declared === null) {
    throw new ValidationError("capabilities must be an object", { step });
  }
  for (const key of Object.keys(declared)) {
    if (!(ADAPTER_FEATURES as readonly string[]).includes(key)) {
      throw new ValidationError(
        `unknown capability ${JSON.stringify(key)}; one of ${ADAPTER_FEATURES.join(", ")}`,
        { step },
      );
    }
  }
  const result: Record<string, unknown> = { ...NO_CAPABILITIES, ...declared };
  for (const key of ADAPTER_FEATURES) {
    const value = result[key];
    const ok =
      key === "streaming"
        ? value === "native" || value === "edit" || value === false
        : typeof value === "boolean";
    if (!ok) {
      const expected = key === "streaming" ? '"native", "edit" or false' : "a boolean";
      throw new ValidationError(`capabilities.${key} must be ${expected}`, { step });
    }
  }
  return Object.freeze(result) as unknown as AdapterCapabilities;
}

/** The optional adapter methods whose presence tells an upstream adapter's capabilities. */
interface CapabilityProbe {
  readonly capabilities?: AdapterCapabilities;
  stream?: unknown;
  openModal?: unknown;
  postEphemeral?: unknown;
  scheduleMessage?: unknown;
  openDM?: unknown;
  getUser?: unknown;
  markAsRead?: unknown;
  reply?: unknown;
}

/**
 * The capabilities of `adapter`: its declared `capabilities`, or — for an adapter ported from
 * upstream, which declares none — what its methods tell. Upstream's rules then hold: optional
 * features exist when their method does, streaming falls back to post + edit, and the required
 * methods (reactions, edits, deletes, typing, history) and cards (upstream adapters render a
 * card's fallback text themselves) are assumed to work.
 */
export function capabilitiesOf(adapter: CapabilityProbe): AdapterCapabilities {
  if (adapter.capabilities !== undefined) return adapter.capabilities;
  const has = (method: unknown): boolean => typeof method === "function";
  return Object.freeze({
    streaming: has(adapter.stream) ? "native" : "edit",
    cards: true,
    modals: has(adapter.openModal),
    ephemeral: has(adapter.postEphemeral),
    scheduling: has(adapter.scheduleMessage),
    reactions: true,
    editMessage: true,
    deleteMessage: true,
    typing: true,
    history: true,
    openDM: has(adapter.openDM),
    getUser: has(adapter.getUser),
    files: true,
    readReceipts: has(adapter.markAsRead),
    replies: has(adapter.reply),
  });
}
