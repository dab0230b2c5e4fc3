import type { TwilioApiError } from "./errors.js";
import type { TwilioOptOutKind } from "./opt-out.js";

/**
 * A delivery status callback for a message the bot sent (`statusCallbackUrl`). `messageId` is
 * the `id` of the `SentMessage` the post returned, so a bot can tie the two together.
 */
export interface TwilioMessageStatusEvent {
  /** The Twilio message sid (`SM…`): the `SentMessage.id`. */
  readonly messageId: string;
  /** The conversation the message belongs to. */
  readonly threadId: string;
  /** `queued`, `sending`, `sent`, `delivered`, `read`, `failed`, `undelivered`, … */
  readonly status: string;
  /** Twilio's error code for a failure (`30003` unreachable, `63016` outside WhatsApp's window). */
  readonly errorCode: number | undefined;
  /** The failure as a Baton error, for `failed` and `undelivered` statuses with a code. */
  readonly error: TwilioApiError | undefined;
  /** The callback's form parameters as Twilio sent them. */
  readonly raw: Readonly<Record<string, string>>;
}

/**
 * A customer sent an opt-out keyword. After `stop` the adapter refuses to send to that thread
 * until `start`; `help` messages are also dispatched to the handlers as ordinary messages.
 */
export interface TwilioOptOutEvent {
  readonly kind: TwilioOptOutKind;
  readonly threadId: string;
  /** The customer's address. */
  readonly from: string;
  /** The bot's address. */
  readonly to: string;
  /** The message as typed. */
  readonly body: string;
  readonly messageId: string;
}

/** A handler of adapter events; may be async. Its failure is logged and never breaks a webhook. */
export type TwilioEventHandler<E> = (event: E) => unknown;
