import type { Attachment, AttachmentType } from "@baton/core";

/** One media item of an inbound MMS or WhatsApp message. */
export interface TwilioMedia {
  readonly url: string;
  readonly contentType: string | undefined;
}

/** A shared location (WhatsApp), when the message carries one. */
export interface TwilioLocation {
  readonly latitude: string;
  readonly longitude: string;
  readonly address?: string;
  readonly label?: string;
}

/** Fields every inbound Twilio webhook carries. */
interface TwilioWebhookBase {
  readonly messageSid: string;
  readonly accountSid: string | undefined;
  /** The other party's address (`+1…`, `whatsapp:+1…`). */
  readonly from: string;
  /** The bot's address the message was sent to. */
  readonly to: string;
  readonly messagingServiceSid: string | undefined;
}

/** An inbound SMS, MMS or WhatsApp message. */
export interface TwilioTextWebhook extends TwilioWebhookBase {
  readonly kind: "text";
  readonly body: string;
  readonly media: readonly TwilioMedia[];
  /** WhatsApp's profile name of the sender. */
  readonly profileName: string | undefined;
  /** WhatsApp's id of the sender. */
  readonly waId: string | undefined;
  /** Twilio's own opt-out classification (`STOP`, `START`, `HELP`), when it sends one. */
  readonly optOutType: string | undefined;
  readonly location: TwilioLocation | undefined;
}

/** A tap on a WhatsApp quick-reply button or list item. */
export interface TwilioActionWebhook extends TwilioWebhookBase {
  readonly kind: "action";
  readonly buttonPayload: string;
  readonly buttonText: string | undefined;
  readonly profileName: string | undefined;
  /** The sid of the message whose button was tapped (`OriginalRepliedMessageSid`), if sent. */
  readonly originalRepliedMessageSid: string | undefined;
}

/** A delivery status callback for a message the bot sent. */
export interface TwilioStatusWebhook extends TwilioWebhookBase {
  readonly kind: "status";
  /** `queued`, `sending`, `sent`, `delivered`, `read`, `failed`, `undelivered`, … */
  readonly messageStatus: string;
  /** Twilio's error code (e.g. `30003`, `63016`), when the status is a failure. */
  readonly errorCode: string | undefined;
  readonly errorMessage: string | undefined;
}

/** Every inbound webhook the adapter understands, told apart by `kind`. */
export type TwilioWebhookPayload = TwilioTextWebhook | TwilioActionWebhook | TwilioStatusWebhook;

/** Why a body is not a Twilio webhook; answered 400. */
export class TwilioWebhookParseError extends Error {
  override readonly name = "TwilioWebhookParseError";
}

// Twilio sends at most 10 media items; a larger NumMedia is not Twilio's.
const MAX_MEDIA = 10;

function optional(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === "" ? undefined : value;
}

function required(params: URLSearchParams, name: string): string {
  const value = optional(params, name);
  if (value === undefined) throw new TwilioWebhookParseError(`the ${name} parameter is missing`);
  return value;
}

function mediaOf(params: URLSearchParams): TwilioMedia[] {
  const count = Number.parseInt(params.get("NumMedia") ?? "0", 10);
  if (!Number.isInteger(count) || count < 0 || count > MAX_MEDIA) {
    throw new TwilioWebhookParseError(`NumMedia must be 0–${MAX_MEDIA}`);
  }
  const media: TwilioMedia[] = [];
  for (let index = 0; index < count; index += 1) {
    const url = required(params, `MediaUrl${index}`);
    media.push({ url, contentType: optional(params, `MediaContentType${index}`) });
  }
  return media;
}

function locationOf(params: URLSearchParams): TwilioLocation | undefined {
  const latitude = optional(params, "Latitude");
  const longitude = optional(params, "Longitude");
  if (latitude === undefined || longitude === undefined) return undefined;
  const address = optional(params, "Address");
  const label = optional(params, "Label");
  return {
    latitude,
    longitude,
    ...(address === undefined ? {} : { address }),
    ...(label === undefined ? {} : { label }),
  };
}

/**
 * Reads a webhook's form parameters (Twilio's documented names) into a typed payload: a status
 * callback when `MessageStatus` is present (Twilio adds `SmsStatus` to inbound messages too, so
 * that one does not count), a button reply when `ButtonPayload` is, a message otherwise. Throws
 * {@link TwilioWebhookParseError} when a required parameter is missing.
 */
export function parseTwilioWebhookBody(params: URLSearchParams): TwilioWebhookPayload {
  const base: TwilioWebhookBase = {
    messageSid: optional(params, "MessageSid") ?? required(params, "SmsSid"),
    accountSid: optional(params, "AccountSid"),
    from: required(params, "From"),
    to: required(params, "To"),
    messagingServiceSid: optional(params, "MessagingServiceSid"),
  };
  const messageStatus = optional(params, "MessageStatus");
  if (messageStatus !== undefined) {
    return {
      ...base,
      kind: "status",
      messageStatus: messageStatus.toLowerCase(),
      errorCode: optional(params, "ErrorCode"),
      errorMessage: optional(params, "ErrorMessage"),
    };
  }
  const buttonPayload = optional(params, "ButtonPayload");
  if (buttonPayload !== undefined) {
    return {
      ...base,
      kind: "action",
      buttonPayload,
      buttonText: optional(params, "ButtonText"),
      profileName: optional(params, "ProfileName"),
      originalRepliedMessageSid: optional(params, "OriginalRepliedMessageSid"),
    };
  }
  return {
    ...base,
    kind: "text",
    body: params.get("Body") ?? "",
    media: mediaOf(params),
    profileName: optional(params, "ProfileName"),
    waId: optional(params, "WaId"),
    optOutType: optional(params, "OptOutType")?.toUpperCase(),
    location: locationOf(params),
  };
}

function attachmentType(contentType: string | undefined): AttachmentType {
  if (contentType?.startsWith("image/")) return "image";
  if (contentType?.startsWith("video/")) return "video";
  if (contentType?.startsWith("audio/")) return "audio";
  return "file";
}

/**
 * The attachments of an inbound message: media keep their Twilio URL in `fetchMetadata`, so the
 * adapter can fetch them lazily with the account's credentials (also after a queue); a location
 * becomes a `geo:` attachment with its coordinates in `fetchMetadata`.
 */
export function attachmentsOf(payload: TwilioTextWebhook): Attachment[] {
  const attachments: Attachment[] = payload.media.map((item) => ({
    type: attachmentType(item.contentType),
    url: item.url,
    ...(item.contentType === undefined ? {} : { mimeType: item.contentType }),
    fetchMetadata: { twilioMediaUrl: item.url },
  }));
  const location = payload.location;
  if (location !== undefined) {
    attachments.push({
      type: "file",
      url: `geo:${location.latitude},${location.longitude}`,
      fetchMetadata: { ...location },
    });
  }
  return attachments;
}
