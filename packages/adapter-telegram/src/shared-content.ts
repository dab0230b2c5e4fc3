import type { Attachment } from "@baton/core";
import type { TelegramLocation, TelegramMessage } from "./parse.js";

/** `live_period` Telegram sends for a live location shared "until I stop". */
const LIVE_INDEFINITELY_SECONDS = 0x7fffffff;

function coordinates(location: TelegramLocation): string {
  return `${location.latitude}, ${location.longitude}`;
}

/**
 * A shared location or venue as an attachment, in the Twilio adapter's shape so a handler reads
 * both alike: `url` `geo:{latitude},{longitude}`, and in `fetchMetadata` `latitude`,
 * `longitude`, and for a venue `label` (its name) and `address`. A live location adds
 * `livePeriodMs` (how long Telegram sends its edits; absent for "until stopped").
 */
export function sharedLocationAttachment(message: TelegramMessage): Attachment | undefined {
  const venue = message.venue;
  // A venue's message has a `location` too: one attachment, from the venue.
  const location = venue?.location ?? message.location;
  if (location === undefined) return undefined;
  const live = location.live_period;
  const metadata: Record<string, string> = {
    latitude: String(location.latitude),
    longitude: String(location.longitude),
    ...(venue === undefined ? {} : { address: venue.address, label: venue.title }),
    ...(live === undefined || live === LIVE_INDEFINITELY_SECONDS
      ? {}
      : { livePeriodMs: String(live * 1_000) }),
  };
  return {
    type: "file",
    url: `geo:${location.latitude},${location.longitude}`,
    fetchMetadata: metadata,
  };
}

/**
 * The text of a message that carries no text of its own but something a person shared — a
 * location, a venue, a contact, a dice roll, a poll — so a handler and the thread's history see
 * what it was (`message.text`); `undefined` for any other message.
 */
export function sharedContentText(message: TelegramMessage): string | undefined {
  const { venue, location, contact, dice, poll } = message;
  if (venue !== undefined) {
    return `Venue: ${venue.title}, ${venue.address} (${coordinates(venue.location)})`;
  }
  if (location !== undefined) {
    const kind = location.live_period === undefined ? "Location" : "Live location";
    return `${kind}: ${coordinates(location)}`;
  }
  if (contact !== undefined) {
    const name = [contact.first_name, contact.last_name].filter(Boolean).join(" ");
    return `Contact: ${name}, ${contact.phone_number}`;
  }
  if (dice !== undefined) return `Dice ${dice.emoji}: ${dice.value}`;
  if (poll !== undefined) {
    const kind = poll.type === "quiz" ? "Quiz" : "Poll";
    return [`${kind}: ${poll.question}`, ...poll.options.map((option) => `- ${option.text}`)].join(
      "\n",
    );
  }
  return undefined;
}
