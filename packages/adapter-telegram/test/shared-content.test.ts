import type { Message } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { GROUP_CHAT } from "../src/testing/index.js";
import { createTelegramHarness, type TelegramHarness } from "./telegram-harness.js";

const harnesses: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

const DM = "telegram:7527593";
const WESTMINSTER = { latitude: 51.500729, longitude: -0.124625 };

/** A harness whose direct-message handler keeps every message it is given. */
async function receiving() {
  const h = await createTelegramHarness();
  harnesses.push(h);
  const messages: Message[] = [];
  h.chat.onDirectMessage((_t, m) => {
    messages.push(m);
  });
  return { h, messages };
}

/** A message with no text, only `fields` (how Telegram sends locations, contacts, polls…). */
function sharing(h: TelegramHarness, fields: Record<string, unknown>) {
  return h.updates.message("", { extra: { text: undefined, ...fields } });
}

describe("locations and venues", () => {
  it("gives a shared location a geo: attachment and a text, in the Twilio adapter's shape", async () => {
    const { h, messages } = await receiving();
    await h.deliver(sharing(h, { location: WESTMINSTER }));
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toBe("Location: 51.500729, -0.124625");
    expect(messages[0]?.attachments).toEqual([
      {
        type: "file",
        url: "geo:51.500729,-0.124625",
        fetchMetadata: { latitude: "51.500729", longitude: "-0.124625" },
      },
    ]);
  });

  it("gives a venue one geo: attachment with its name as label and its address", async () => {
    const { h, messages } = await receiving();
    const venue = {
      location: { latitude: 51.508039, longitude: -0.128069 },
      title: "Trafalgar Square",
      address: "Trafalgar Sq, London WC2N 5DN",
      google_place_id: "ChIJH-tBOc4EdkgRJ8aJ8P1CUxo",
    };
    // The Bot API sets `location` beside `venue`, for older clients.
    await h.deliver(sharing(h, { venue, location: venue.location }));
    expect(messages[0]?.text).toBe(
      "Venue: Trafalgar Square, Trafalgar Sq, London WC2N 5DN (51.508039, -0.128069)",
    );
    expect(messages[0]?.attachments).toEqual([
      {
        type: "file",
        url: "geo:51.508039,-0.128069",
        fetchMetadata: {
          latitude: "51.508039",
          longitude: "-0.128069",
          address: "Trafalgar Sq, London WC2N 5DN",
          label: "Trafalgar Square",
        },
      },
    ]);
  });

  it("follows a live location through its edits", async () => {
    const { h, messages } = await receiving();
    const updated: Message[] = [];
    h.chat.onMessageUpdated?.((_t, m) => {
      updated.push(m);
    });
    const live = { ...WESTMINSTER, live_period: 900, horizontal_accuracy: 12.5 };
    const update = sharing(h, { location: live });
    await h.deliver(update);
    expect(messages[0]?.text).toBe("Live location: 51.500729, -0.124625");
    expect(messages[0]?.attachments[0]?.fetchMetadata).toEqual({
      latitude: "51.500729",
      longitude: "-0.124625",
      livePeriodMs: "900000",
    });
    const moved = { ...live, latitude: 51.5014, longitude: -0.1419, heading: 270 };
    await h.deliver({
      update_id: h.updates.nextUpdateId(),
      edited_message: { ...update.message, location: moved, edit_date: 1_767_225_660 },
    });
    await h.settle();
    expect(updated.map((m) => [m.id, m.text, m.attachments[0]?.url])).toEqual([
      [messages[0]?.id, "Live location: 51.5014, -0.1419", "geo:51.5014,-0.1419"],
    ]);
  });

  it("keeps a location's text in the thread's history and in a subscribed thread", async () => {
    const h = await createTelegramHarness();
    harnesses.push(h);
    const seen: string[] = [];
    h.chat.onSubscribedMessage((_t, m) => {
      seen.push(m.text);
    });
    const group = `telegram:${GROUP_CHAT.id}`;
    await h.chat.thread(group).subscribe();
    await h.deliver(
      h.updates.message("", {
        chat: GROUP_CHAT,
        extra: { text: undefined, location: WESTMINSTER },
      }),
    );
    expect(seen).toEqual(["Location: 51.500729, -0.124625"]);
    const history: string[] = [];
    for await (const message of h.chat.thread(group).allMessages) history.push(message.text);
    expect(history).toEqual(["Location: 51.500729, -0.124625"]);
  });

  it("answers 400 to a location without coordinates", async () => {
    const { h, messages } = await receiving();
    const response = await h.deliver(sharing(h, { location: { latitude: "north" } }));
    expect(response.status).toBe(400);
    expect(messages).toEqual([]);
  });
});

describe("contacts, dice and polls", () => {
  it("gives a shared contact a text with its name and phone number", async () => {
    const { h, messages } = await receiving();
    const contact = {
      phone_number: "+442079460000",
      first_name: "Ada",
      last_name: "Lovelace",
      user_id: 7001,
    };
    await h.deliver(sharing(h, { contact }));
    expect(messages[0]?.text).toBe("Contact: Ada Lovelace, +442079460000");
  });

  it("gives a dice roll a text with its emoji and value", async () => {
    const { h, messages } = await receiving();
    await h.deliver(sharing(h, { dice: { emoji: "🎲", value: 4 } }));
    expect(messages[0]?.text).toBe("Dice 🎲: 4");
  });

  it("gives a poll a text with its question and options, one per line", async () => {
    const { h, messages } = await receiving();
    const poll = {
      id: "5316753840924262402",
      question: "Which day works for the retro?",
      options: [
        { text: "Thursday", voter_count: 0 },
        { text: "Friday", voter_count: 0 },
      ],
      total_voter_count: 0,
      is_closed: false,
      is_anonymous: true,
      type: "regular",
      allows_multiple_answers: false,
    };
    await h.deliver(sharing(h, { poll }));
    expect(messages[0]?.text).toBe("Poll: Which day works for the retro?\n- Thursday\n- Friday");
    expect(messages[0]?.formatted.children).toHaveLength(1);
  });
});
