import {
  type AdapterPostableMessage,
  type Attachment,
  type CardElement,
  isCardElement,
  NotSupportedError,
  ValidationError,
} from "@baton/core";
import type { TwilioApi, TwilioMessageResource } from "./api.js";
import { cardToTwilioText, type TwilioMenuChoice } from "./cards.js";
import { TwilioFormatConverter } from "./format.js";
import { splitTwilioBody } from "./split.js";
import { isMessagingServiceSid, isWhatsAppAddress, TWILIO_ADAPTER_NAME } from "./thread-id.js";

/** One post to send: where from, where to, and what. */
export interface TwilioPost {
  readonly sender: string;
  readonly recipient: string;
  readonly message: AdapterPostableMessage;
  readonly statusCallback: string | undefined;
}

/** What a post became: Twilio's message resources (one per part), and a card's menu. */
export interface TwilioPostResult {
  readonly resources: readonly TwilioMessageResource[];
  readonly choices: readonly TwilioMenuChoice[];
}

const SMS = new TwilioFormatConverter("sms");
const WHATSAPP = new TwilioFormatConverter("whatsapp");

function cardOf(message: AdapterPostableMessage): CardElement | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  if ("card" in message) return message.card as CardElement;
  return isCardElement(message) ? (message as CardElement) : undefined;
}

/** The text and menu of a postable message in the dialect of its channel. */
function render(post: TwilioPost): { text: string; choices: readonly TwilioMenuChoice[] } {
  const whatsapp = isWhatsAppAddress(post.recipient) || isWhatsAppAddress(post.sender);
  const converter = whatsapp ? WHATSAPP : SMS;
  const card = cardOf(post.message);
  if (card !== undefined) {
    return cardToTwilioText(card, converter);
  }
  return { text: converter.renderPostable(post.message), choices: [] };
}

/** Media URLs of a post: every attachment must have a public http(s) URL Twilio can fetch. */
function mediaUrlsOf(message: AdapterPostableMessage): string[] {
  if (typeof message !== "object" || message === null) return [];
  if ("files" in message && message.files && message.files.length > 0) {
    throw new NotSupportedError(TWILIO_ADAPTER_NAME, "files");
  }
  const attachments = ("attachments" in message ? message.attachments : undefined) ?? [];
  return attachments.map((attachment: Attachment) => {
    const url = attachment.url;
    if (url === undefined || !/^https?:\/\//.test(url)) {
      throw new ValidationError(
        "Twilio sends media by URL: every attachment needs a public URL Twilio can fetch",
        { step: "post twilio message" },
      );
    }
    return url;
  });
}

/**
 * Sends a post as one or more Twilio messages: rendered for SMS or WhatsApp, split at safe
 * boundaries into bodies within Twilio's 1 600-character limit, media on the first part, from a
 * Messaging Service when the thread's sender is one and from the number otherwise.
 */
export async function sendTwilioPost(api: TwilioApi, post: TwilioPost): Promise<TwilioPostResult> {
  const { text, choices } = render(post);
  const mediaUrl = mediaUrlsOf(post.message);
  if (text.trim() === "" && mediaUrl.length === 0) {
    throw new ValidationError("a Twilio message needs text or media", {
      step: "post twilio message",
    });
  }
  const from = isMessagingServiceSid(post.sender)
    ? { messagingServiceSid: post.sender }
    : { from: post.sender };
  const bodies = text.trim() === "" ? [undefined] : splitTwilioBody(text);
  const resources: TwilioMessageResource[] = [];
  for (const [index, body] of bodies.entries()) {
    resources.push(
      await api.sendMessage({
        to: post.recipient,
        ...from,
        ...(body === undefined ? {} : { body }),
        ...(index === 0 && mediaUrl.length > 0 ? { mediaUrl } : {}),
        ...(post.statusCallback === undefined ? {} : { statusCallback: post.statusCallback }),
      }),
    );
  }
  return { resources, choices };
}
