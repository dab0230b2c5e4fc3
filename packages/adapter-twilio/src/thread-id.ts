import { ValidationError } from "@baton/core";

/**
 * One Twilio conversation: the bot's address and the other party's. `sender` is the bot's side
 * (a number, `whatsapp:+…`, or a Messaging Service `MG…`); `recipient` is the customer's.
 */
export interface TwilioThreadData {
  readonly sender: string;
  readonly recipient: string;
}

/** The adapter name every Twilio thread id starts with. */
export const TWILIO_ADAPTER_NAME = "twilio";

const PREFIX = `${TWILIO_ADAPTER_NAME}:`;

/**
 * `twilio:{sender}:{recipient}`, each part URI-encoded (upstream's format, so `+` and `:` in
 * `whatsapp:+1…` round-trip). One thread per sender–recipient pair: a customer's conversation
 * with one of the bot's numbers.
 */
export function encodeTwilioThreadId(data: TwilioThreadData): string {
  if (!data?.sender || !data?.recipient) {
    throw new ValidationError("a Twilio thread needs a sender and a recipient address", {
      step: "encode twilio thread id",
    });
  }
  return `${PREFIX}${encodeURIComponent(data.sender)}:${encodeURIComponent(data.recipient)}`;
}

/** The inverse of {@link encodeTwilioThreadId}; throws a `ValidationError` for any other id. */
export function decodeTwilioThreadId(threadId: string): TwilioThreadData {
  const step = "decode twilio thread id";
  if (typeof threadId !== "string" || !threadId.startsWith(PREFIX)) {
    throw new ValidationError(`${JSON.stringify(threadId)} is not a Twilio thread id`, { step });
  }
  const parts = threadId.slice(PREFIX.length).split(":");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "") {
    throw new ValidationError(
      `${JSON.stringify(threadId)} is not of the form twilio:{sender}:{recipient}`,
      { step },
    );
  }
  try {
    return {
      sender: decodeURIComponent(parts[0] as string),
      recipient: decodeURIComponent(parts[1] as string),
    };
  } catch {
    throw new ValidationError(`${JSON.stringify(threadId)} has a malformed escape`, { step });
  }
}

/**
 * The channel of a thread: the bot's own address (`twilio:{sender}`). Channel lock scope would
 * put every customer of one number behind one lock, which is why the adapter declares none and
 * the default per-thread lock applies.
 */
export function twilioChannelIdFromThreadId(threadId: string): string {
  const { sender } = decodeTwilioThreadId(threadId);
  return `${PREFIX}${encodeURIComponent(sender)}`;
}

/** True for a WhatsApp address (`whatsapp:+…`). */
export function isWhatsAppAddress(address: string): boolean {
  return address.toLowerCase().startsWith("whatsapp:");
}

/** True for a Messaging Service sid used as a sender. */
export function isMessagingServiceSid(address: string): boolean {
  return /^MG\w+$/.test(address);
}
