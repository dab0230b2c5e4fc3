import { Chat } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { createTwilioAdapter, TwilioOptOutError, type TwilioOptOutEvent } from "../src/index.js";
import { CUSTOMER, createTwilioHarness, SMS_THREAD } from "./twilio-harness.js";

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function optOutHarness() {
  const h = await createTwilioHarness();
  harnesses.push(h);
  const events: TwilioOptOutEvent[] = [];
  const handled: string[] = [];
  h.adapter.onOptOut((event) => {
    events.push(event);
  });
  h.chat.onDirectMessage((_thread, message) => {
    handled.push(message.text);
  });
  return { h, events, handled };
}

describe("opt-outs: a bot can never text someone who replied STOP", () => {
  it("records STOP as an event, runs no handler, and refuses every later post until START", async () => {
    const { h, events, handled } = await optOutHarness();

    expect((await h.deliver(h.sms("stop "))).status).toBe(200);

    expect(events.map((event) => [event.kind, event.threadId, event.from])).toEqual([
      ["stop", SMS_THREAD, CUSTOMER],
    ]);
    expect(handled).toEqual([]);
    await expect(h.adapter.postMessage(SMS_THREAD, "we miss you")).rejects.toThrow(
      TwilioOptOutError,
    );
    await expect(h.chat.thread(SMS_THREAD).post("still there?")).rejects.toThrow(/opted out/);
    expect(h.fake.messages).toEqual([]);

    await h.deliver(h.sms("START"));

    expect(events.map((event) => event.kind)).toEqual(["stop", "start"]);
    await h.adapter.postMessage(SMS_THREAD, "welcome back");
    expect(h.fake.bodiesTo(CUSTOMER)).toEqual(["welcome back"]);
  });

  it("keeps the opt-out in the State, so another instance refuses too", async () => {
    const { h } = await optOutHarness();
    await h.deliver(h.sms("UNSUBSCRIBE"));

    // A second replica of the bot: its own adapter and Chat, on the same State.
    const other = createTwilioAdapter({ ...h.adapter.options });
    const replica = new Chat({
      userName: "bot",
      adapters: { twilio: other },
      state: h.state,
      logger: "silent",
      clock: h.clock,
    });
    await replica.initialize();

    await expect(replica.thread(SMS_THREAD).post("hello")).rejects.toThrow(/opted out/);
    expect(h.fake.messages).toEqual([]);
    await replica.shutdown();
  });

  it("takes Twilio's own OptOutType over the keyword list", async () => {
    const { h, events, handled } = await optOutHarness();

    await h.deliver(h.sms("arrêtez", { OptOutType: "STOP" }));

    expect(events.map((event) => event.kind)).toEqual(["stop"]);
    expect(handled).toEqual([]);
  });

  it("tells the bot about HELP and still hands the message to its handlers", async () => {
    const { h, events, handled } = await optOutHarness();

    await h.deliver(h.sms("HELP"));

    expect(events.map((event) => event.kind)).toEqual(["help"]);
    expect(handled).toEqual(["HELP"]);
  });

  it("treats a keyword inside a sentence as an ordinary message", async () => {
    const { h, events, handled } = await optOutHarness();

    await h.deliver(h.sms("please don't stop the deliveries"));

    expect(events).toEqual([]);
    expect(handled).toEqual(["please don't stop the deliveries"]);
  });
});
