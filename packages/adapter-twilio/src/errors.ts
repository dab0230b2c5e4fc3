import { AdapterError, type BatonErrorOptions, isBatonError } from "@baton/core";
import { TWILIO_ADAPTER_NAME } from "./thread-id.js";

/** Twilio's error code for a WhatsApp message outside the 24-hour customer service window. */
export const TWILIO_OUTSIDE_SESSION_WINDOW = 63016;

/** Twilio's error code for a `ContentSid` that names no template of the account (e.g. deleted). */
export const TWILIO_INVALID_CONTENT_SID = 21655;

/** Twilio's error code for a message to a recipient who replied STOP. */
export const TWILIO_UNSUBSCRIBED_RECIPIENT = 21610;

/** A REST call Twilio refused; `twilioCode` is Twilio's own error code when it sent one. */
export class TwilioApiError extends AdapterError {
  /** The HTTP status Twilio answered, when the call reached Twilio. */
  readonly status: number | undefined;
  /** Twilio's error code (`21211`, `63016`, …); see Twilio's error dictionary. */
  readonly twilioCode: number | undefined;
  /** Twilio's link to the error's documentation. */
  readonly moreInfo: string | undefined;

  constructor(
    message: string,
    details: { status?: number; twilioCode?: number; moreInfo?: string },
    options: BatonErrorOptions = {},
  ) {
    super(TWILIO_ADAPTER_NAME, message, options);
    this.name = "TwilioApiError";
    this.status = details.status;
    this.twilioCode = details.twilioCode;
    this.moreInfo = details.moreInfo;
  }
}

/**
 * WhatsApp refused a free-form message: more than 24 hours passed since the customer's last
 * message (Twilio error 63016). Only an approved template (Twilio's Content API, `contentSid`)
 * may open the conversation again; see the package README.
 */
export class TwilioSessionWindowError extends TwilioApiError {
  constructor(details: { status?: number; moreInfo?: string }, options: BatonErrorOptions = {}) {
    super(
      "WhatsApp allows free-form messages only within 24 hours of the customer's last message " +
        "(Twilio error 63016); send an approved template to reopen the conversation",
      { ...details, twilioCode: TWILIO_OUTSIDE_SESSION_WINDOW },
      options,
    );
    this.name = "TwilioSessionWindowError";
  }
}

/**
 * The recipient opted out (replied STOP, or Twilio says so with error 21610): nothing is sent
 * until they opt in again (START).
 */
export class TwilioOptOutError extends TwilioApiError {
  readonly recipient: string;

  constructor(recipient: string, options: BatonErrorOptions = {}) {
    super(
      `${recipient} opted out (replied STOP); nothing is sent to them until they reply START`,
      { twilioCode: TWILIO_UNSUBSCRIBED_RECIPIENT },
      options,
    );
    this.name = "TwilioOptOutError";
    this.recipient = recipient;
  }
}

interface RestFailure {
  status?: unknown;
  code?: unknown;
  moreInfo?: unknown;
  message?: unknown;
}

/**
 * The Baton error for a failed Twilio call: Baton errors (a missing credential) pass through,
 * Twilio's session-window refusal becomes {@link TwilioSessionWindowError}, every other failure
 * a {@link TwilioApiError} prefixed with `step`, the original kept as `cause`.
 */
export function twilioApiError(step: string, error: unknown): Error {
  if (isBatonError(error)) return error as Error;
  const failure = (typeof error === "object" && error !== null ? error : {}) as RestFailure;
  const status = typeof failure.status === "number" ? failure.status : undefined;
  const twilioCode = typeof failure.code === "number" ? failure.code : undefined;
  const moreInfo = typeof failure.moreInfo === "string" ? failure.moreInfo : undefined;
  const options = { cause: error, step: `twilio: ${step}` };
  if (twilioCode === TWILIO_OUTSIDE_SESSION_WINDOW) {
    return new TwilioSessionWindowError(
      { ...(status === undefined ? {} : { status }), ...(moreInfo ? { moreInfo } : {}) },
      options,
    );
  }
  const message = typeof failure.message === "string" ? failure.message : String(error);
  return new TwilioApiError(
    twilioCode === undefined ? message : `${message} (Twilio error ${twilioCode})`,
    {
      ...(status === undefined ? {} : { status }),
      ...(twilioCode === undefined ? {} : { twilioCode }),
      ...(moreInfo === undefined ? {} : { moreInfo }),
    },
    options,
  );
}
