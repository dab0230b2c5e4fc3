import { readFileSync } from "node:fs";
import { Actions, Button, Card } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import type { TwilioMessageStatusEvent, TwilioOptOutEvent } from "../src/index.js";
import { createTwilioHarness, WEBHOOK_URL } from "./twilio-harness.js";

type Payload = Record<string, string>;
const FIXTURES = JSON.parse(
  readFileSync(new URL("./fixtures/inbound.json", import.meta.url), "utf8"),
) as Record<string, Payload>;

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** A harness whose bot answers every direct message and records every action. */
async function replayHarness() {
  const h = await createTwilioHarness({ statusCallbackUrl: `${WEBHOOK_URL}/status` });
  harnesses.push(h);
  const seen: Array<{ threadId: string; from: string; name: string; text: string; files: number }> =
    [];
  const actions: Array<[string, string | undefined, string]> = [];
  h.chat.onDirectMessage(async (thread, message) => {
    seen.push({
      threadId: thread.id,
      from: message.author.userId,
      name: message.author.fullName,
      text: message.text,
      files: message.attachments.length,
    });
    await thread.post(`got it: ${message.text || "(no text)"}`);
  });
  h.chat.onAction((event) => {
    actions.push([event.actionId, event.value, event.threadId]);
  });
  /** A fixture with `{media:type:name}` placeholders replaced by media the fake serves. */
  const fixture = (name: string): Payload => {
    const payload = { ...(FIXTURES[name] as Payload) };
    for (const [key, value] of Object.entries(payload)) {
      const media = /^\{media:([^:]+):([^}]+)\}$/.exec(value);
      if (media) payload[key] = h.fake.addMedia(`bytes of ${media[2]}`, media[1]);
    }
    return payload;
  };
  return { h, seen, actions, fixture };
}

describe("replays of Twilio's documented webhooks through the signed entry point", () => {
  it("routes an SMS to its conversation and answers from the number it was sent to", async () => {
    const { h, seen, fixture } = await replayHarness();

    const response = await h.deliver(fixture("sms"));

    expect(response.status).toBe(200);
    expect(seen).toEqual([
      {
        threadId: "twilio:%2B15550000001:%2B15550000002",
        from: "+15550000002",
        name: "+15550000002",
        text: "Hi, where is my order #1042?",
        files: 0,
      },
    ]);
    expect(h.fake.messages.map((m) => [m.from, m.to, m.body])).toEqual([
      ["+15550000001", "+15550000002", "got it: Hi, where is my order #1042?"],
    ]);
  });

  it("gives an MMS's media as attachments fetched with the account's credentials", async () => {
    const { h, fixture } = await replayHarness();
    const downloads: string[] = [];
    h.chat.onDirectMessage(async (_thread, message) => {
      for (const attachment of message.attachments) {
        const bytes = await attachment.fetchData?.();
        downloads.push(
          `${attachment.type} ${attachment.mimeType} ${new TextDecoder().decode(bytes)}`,
        );
      }
    });

    await h.deliver(fixture("mms"));

    expect(downloads).toEqual([
      "image image/jpeg bytes of box-front",
      "image image/png bytes of box-label",
    ]);
  });

  it("answers a WhatsApp message on WhatsApp, with the customer's profile name", async () => {
    const { h, seen, fixture } = await replayHarness();

    await h.deliver(fixture("whatsapp"));

    expect(seen[0]).toMatchObject({
      threadId: "twilio:whatsapp%3A%2B15550000001:whatsapp%3A%2B447700900123",
      from: "whatsapp:+447700900123",
      name: "Ada Lovelace",
    });
    expect(h.fake.messages[0]).toMatchObject({
      from: "whatsapp:+15550000001",
      to: "whatsapp:+447700900123",
    });
  });

  it("turns a WhatsApp button reply into an action, not a message", async () => {
    const { h, seen, actions, fixture } = await replayHarness();

    await h.deliver(fixture("whatsappButton"));
    await h.clock.settle();

    expect(actions).toEqual([
      [
        "track_order",
        "Track my order",
        "twilio:whatsapp%3A%2B15550000001:whatsapp%3A%2B447700900123",
      ],
    ]);
    expect(seen).toEqual([]);
  });

  it("answers the bot's own quick reply with the tapped button's value", async () => {
    const { h, seen, actions, fixture } = await replayHarness();
    const thread = "twilio:whatsapp%3A%2B15550000001:whatsapp%3A%2B447700900123";
    await h.chat.thread(thread).post(
      Card({
        title: "Order 1042",
        children: [
          Actions([
            Button({ id: "track_order", label: "Track my order", value: "1042" }),
            Button({ id: "talk_to_agent", label: "Talk to an agent" }),
          ]),
        ],
      }),
    );

    await h.deliver(fixture("whatsappButton"));
    await h.clock.settle();

    expect(h.fake.messages[0]?.contentSid).toBe(h.fake.contents[0]?.sid);
    expect(actions).toEqual([["track_order", "1042", thread]]);
    expect(seen).toEqual([]);
  });

  it("gives a shared location as a geo: attachment", async () => {
    const { h, fixture } = await replayHarness();
    const locations: unknown[] = [];
    h.chat.onDirectMessage((_thread, message) => {
      locations.push(message.attachments[0]);
    });

    await h.deliver(fixture("whatsappLocation"));

    expect(locations).toEqual([
      expect.objectContaining({
        url: "geo:51.5072,-0.1276",
        fetchMetadata: expect.objectContaining({
          address: "Trafalgar Square, London",
          label: "Meet here",
        }),
      }),
    ]);
  });

  it("records a STOP, and reports the delivery statuses Twilio fires for the bot's answers", async () => {
    const { h, fixture } = await replayHarness();
    const optOuts: TwilioOptOutEvent[] = [];
    const statuses: TwilioMessageStatusEvent[] = [];
    h.adapter.onOptOut((event) => {
      optOuts.push(event);
    });
    h.adapter.onMessageStatus((event) => {
      statuses.push(event);
    });
    await h.deliver(fixture("sms"));
    const answer = h.fake.messages[0];
    if (answer === undefined) throw new Error("the bot did not answer");

    await h.fake.fireStatusCallback(answer.sid, "sent", h.webhook);
    await h.fake.fireStatusCallback(answer.sid, "undelivered", h.webhook, { ErrorCode: "30003" });
    await h.clock.settle();
    await h.deliver(fixture("stop"));

    expect(statuses.map((event) => [event.messageId, event.status, event.errorCode])).toEqual([
      [answer.sid, "sent", undefined],
      [answer.sid, "undelivered", 30003],
    ]);
    expect(optOuts.map((event) => [event.kind, event.from])).toEqual([["stop", "+15550000002"]]);
    expect(h.fake.messages).toHaveLength(1);
  });
});
