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
import { TWILIO_INVALID_CONTENT_SID, TwilioApiError } from "./errors.js";
import { TwilioFormatConverter } from "./format.js";
import { cardToQuickReply, type TwilioQuickReply } from "./quick-reply.js";
import { splitTwilioBody } from "./split.js";
import { isMessagingServiceSid, isWhatsAppAddress, TWILIO_ADAPTER_NAME } from "./thread-id.js";

/** One post to send: where from, where to, and what. */
export interface TwilioPost {
  readonly sender: string;
  readonly recipient: string;
  readonly message: AdapterPostableMessage;
  readonly statusCallback: string | undefined;
  /**
   * The Content template sid for a quick reply's buttons and template body (see
   * `QuickReplyTemplates`); without it, cards are always numbered menus.
   */
  readonly quickReplyTemplate?: (
    buttons: TwilioQuickReply["buttons"],
    template: string,
    refresh?: boolean,
  ) => Promise<string>;
}

/** What a post became: Twilio's message resources (one per part), and a card's choices. */
export interface TwilioPostResult {
  readonly resources: readonly TwilioMessageResource[];
  readonly choices: readonly TwilioMenuChoice[];
  /** True when the card went out as WhatsApp quick-reply buttons rather than a numbered menu. */
  readonly quickReply: boolean;
}

const SMS = new TwilioFormatConverter("sms");
const WHATSAPP = new TwilioFormatConverter("whatsapp");

function isWhatsApp(post: TwilioPost): boolean {
  return isWhatsAppAddress(post.recipient) || isWhatsAppAddress(post.sender);
}

function senderOf(post: TwilioPost): { messagingServiceSid: string } | { from: string } {
  return isMessagingServiceSid(post.sender)
    ? { messagingServiceSid: post.sender }
    : { from: post.sender };
}

function cardOf(message: AdapterPostableMessage): CardElement | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  if ("card" in message) return message.card as CardElement;
  return isCardElement(message) ? (message as CardElement) : undefined;
}

/** The text and menu of a postable message in the dialect of its channel. */
function render(post: TwilioPost): { text: string; choices: readonly TwilioMenuChoice[] } {
  const converter = isWhatsApp(post) ? WHATSAPP : SMS;
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
 * Messaging Service when the thread's sender is one and from the number otherwise. A WhatsApp
 * card that quick replies can express goes out as one message of its Content template
 * (`contentSid`, one variable per line of the card's text); any other card is a numbered text menu.
 */
export async function sendTwilioPost(api: TwilioApi, post: TwilioPost): Promise<TwilioPostResult> {
  const mediaUrl = mediaUrlsOf(post.message);
  const quickReply = mediaUrl.length === 0 ? quickReplyOf(post) : undefined;
  const template = post.quickReplyTemplate;
  if (quickReply !== undefined && template !== undefined) {
    const send = async (refresh: boolean) =>
      api.sendMessage({
        to: post.recipient,
        ...senderOf(post),
        contentSid: await template(quickReply.buttons, quickReply.template, refresh),
        contentVariables: JSON.stringify(quickReply.variables),
        ...(post.statusCallback === undefined ? {} : { statusCallback: post.statusCallback }),
      });
    // A cached template deleted on Twilio's side is refused with 21655: make it anew, once.
    const resource = await send(false).catch((error: unknown) => {
      if (error instanceof TwilioApiError && error.twilioCode === TWILIO_INVALID_CONTENT_SID) {
        return send(true);
      }
      throw error;
    });
    return { resources: [resource], choices: quickReply.choices, quickReply: true };
  }
  const { text, choices } = render(post);
  if (text.trim() === "" && mediaUrl.length === 0) {
    throw new ValidationError("a Twilio message needs text or media", {
      step: "post twilio message",
    });
  }
  const from = senderOf(post);
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
  return { resources, choices, quickReply: false };
}

/** A WhatsApp card that quick replies can express (no media: a quick reply carries none). */
function quickReplyOf(post: TwilioPost): TwilioQuickReply | undefined {
  if (!isWhatsApp(post) || post.quickReplyTemplate === undefined) return undefined;
  const card = cardOf(post.message);
  return card === undefined ? undefined : cardToQuickReply(card);
}
