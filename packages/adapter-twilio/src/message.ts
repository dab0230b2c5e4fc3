import { type Attachment, type Author, Message, ValidationError } from "@baton/core";
import { attachmentsOf, type TwilioTextWebhook } from "./parse.js";
import { encodeTwilioThreadId } from "./thread-id.js";

/** The thread of an inbound message: the bot's side (its Messaging Service, else its number). */
export function inboundThreadId(payload: {
  readonly from: string;
  readonly to: string;
  readonly messagingServiceSid: string | undefined;
}): string {
  return encodeTwilioThreadId({
    sender: payload.messagingServiceSid ?? payload.to,
    recipient: payload.from,
  });
}

/** The author of an inbound message: the customer, by address, with WhatsApp's profile name. */
export function customerAuthor(address: string, profileName?: string): Author {
  return {
    userId: address,
    userName: address,
    fullName: profileName ?? address,
    isBot: false,
    isMe: false,
  };
}

/**
 * The Baton message of an inbound webhook, received at `receivedAtMs`; `withFetcher` gives each
 * media attachment its lazy, credentialed download.
 */
export function messageFromWebhook(
  payload: TwilioTextWebhook,
  receivedAtMs: number,
  withFetcher: (attachment: Attachment) => Attachment,
  isBotAddress: (address: string) => boolean,
): Message {
  const fromBot = isBotAddress(payload.from);
  return new Message({
    id: payload.messageSid,
    threadId: inboundThreadId(payload),
    text: payload.body,
    author: fromBot
      ? { ...customerAuthor(payload.from), isBot: true, isMe: true }
      : customerAuthor(payload.from, payload.profileName),
    metadata: { dateSent: new Date(receivedAtMs), edited: false },
    attachments: attachmentsOf(payload).map(withFetcher),
    // SMS has no mentions: every message is addressed to the bot, as in a direct conversation.
    isMention: true,
  });
}

/** A Message resource of Twilio's REST API (snake_case, as the API sends it). */
export interface TwilioRestMessage {
  readonly sid: string;
  readonly from: string;
  readonly to: string;
  readonly body?: string | null;
  readonly direction?: string;
  readonly date_created?: string | null;
  readonly messaging_service_sid?: string | null;
}

function isRestMessage(raw: unknown): raw is TwilioRestMessage {
  const value = raw as Partial<TwilioRestMessage> | null;
  return (
    typeof value === "object" &&
    value !== null &&
    typeof value.sid === "string" &&
    typeof value.from === "string" &&
    typeof value.to === "string"
  );
}

/**
 * A Message resource as a Baton message. Inbound ones are the customer's (thread: our `to`,
 * their `from`); outbound ones (`outbound-*` directions) the bot's own, marked `isMe`.
 */
export function messageFromRest(raw: unknown, botName: string): Message {
  if (!isRestMessage(raw)) {
    throw new ValidationError("a Twilio message needs string sid, from and to fields", {
      step: "parse twilio message",
    });
  }
  const outbound = raw.direction?.startsWith("outbound") === true;
  const ours = outbound ? raw.from : raw.to;
  const theirs = outbound ? raw.to : raw.from;
  const sent = raw.date_created ? new Date(raw.date_created) : new Date(0);
  const author: Author = outbound
    ? { userId: ours, userName: botName, fullName: botName, isBot: true, isMe: true }
    : customerAuthor(theirs);
  return new Message({
    id: raw.sid,
    threadId: encodeTwilioThreadId({
      sender: raw.messaging_service_sid ?? ours,
      recipient: theirs,
    }),
    text: raw.body ?? "",
    author,
    metadata: { dateSent: Number.isNaN(sent.getTime()) ? new Date(0) : sent, edited: false },
    isMention: !outbound,
  });
}
