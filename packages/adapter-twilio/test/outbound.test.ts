import { NotSupportedError } from "@baton/core";
import type { FakeClock } from "@baton/testing";
import { afterEach, describe, expect, it } from "vitest";
import { TwilioApiError, TwilioSessionWindowError } from "../src/index.js";
import { TWILIO_BODY_LIMIT } from "../src/testing/index.js";
import { CUSTOMER, createTwilioHarness, SMS_THREAD } from "./twilio-harness.js";

const WHATSAPP_THREAD = "twilio:whatsapp%3A%2B15550000001:whatsapp%3A%2B15550000002";

/**
 * Waits (in real time: the fake's answers cross a real socket) until the adapter has scheduled
 * one more timer on the fake clock than `baseline`, i.e. it is sleeping before a retry.
 */
async function retryScheduled(clock: FakeClock, baseline: number): Promise<void> {
  for (let waited = 0; clock.pendingTimers <= baseline; waited += 5) {
    if (waited > 10_000) throw new Error("the adapter never scheduled a retry");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness() {
  const created = await createTwilioHarness();
  harnesses.push(created);
  return created;
}

describe("outbound messages", () => {
  it("renders markdown as plain text on SMS", async () => {
    const h = await harness();

    await h.chat.thread(SMS_THREAD).post({
      markdown: "**Order** _shipped_: see [tracking](https://track.example/1)\n\n- box 1\n- box 2",
    });

    expect(h.fake.bodiesTo(CUSTOMER)).toEqual([
      "Order shipped: see tracking (https://track.example/1)\n\n- box 1\n- box 2",
    ]);
  });

  it("renders markdown with WhatsApp's own formatting on WhatsApp", async () => {
    const h = await harness();

    await h.chat.thread(WHATSAPP_THREAD).post({
      markdown: "**bold**, _italic_, ~~gone~~ and `code`",
    });

    expect(h.fake.messages[0]).toMatchObject({
      from: "whatsapp:+15550000001",
      to: "whatsapp:+15550000002",
      body: "*bold*, _italic_, ~gone~ and `code`",
    });
  });

  it("splits a body over Twilio's 1 600-character limit into messages the API accepts", async () => {
    const h = await harness();
    const paragraph = "word ".repeat(150).trim(); // 749 characters
    const text = [paragraph, paragraph, paragraph].join("\n\n");

    await h.adapter.postMessage(SMS_THREAD, text);

    const bodies = h.fake.bodiesTo(CUSTOMER) as string[];
    expect(bodies.length).toBe(2);
    for (const body of bodies) expect([...body].length).toBeLessThanOrEqual(TWILIO_BODY_LIMIT);
    expect(bodies.join("\n\n")).toBe(text);
  });

  it("retries a 429 and a 5xx with backoff on the adapter's clock, then succeeds", async () => {
    const h = await harness();
    h.fake.failNext("messages.create", { status: 429 });
    h.fake.failNext("messages.create", { status: 503 });

    const baseline = h.clock.pendingTimers;
    const sending = h.adapter.postMessage(SMS_THREAD, "eventually");
    await retryScheduled(h.clock, baseline);
    await h.clock.advance(9);
    expect(h.fake.requests.filter((r) => r.path.endsWith("/Messages.json"))).toHaveLength(1);
    await h.clock.advance(1); // the first backoff: 10 ms
    await retryScheduled(h.clock, baseline);
    await h.clock.advance(20); // the second, doubled
    const sent = await sending;

    expect(sent.id).toMatch(/^SM/);
    const creates = h.fake.requests.filter((request) => request.path.endsWith("/Messages.json"));
    expect(creates).toHaveLength(3);
    expect(h.fake.bodiesTo(CUSTOMER)).toEqual(["eventually"]);
  });

  it("gives up after maxRetries and names Twilio's error code", async () => {
    const h = await harness();
    h.fake.failNext("messages.create", { status: 500 }, 4);

    const baseline = h.clock.pendingTimers;
    const failure = h.adapter.postMessage(SMS_THREAD, "never").catch((error: unknown) => error);
    for (const delayMs of [10, 20, 40]) {
      await retryScheduled(h.clock, baseline);
      await h.clock.advance(delayMs);
    }

    const error = await failure;
    expect(error).toBeInstanceOf(TwilioApiError);
    expect(error).toMatchObject({ status: 500, twilioCode: 20500, code: "ADAPTER_FAILED" });
  });

  it("does not retry an error the request itself caused", async () => {
    const h = await harness();
    h.fake.failNext("messages.create", { status: 400, code: 21211 });

    await expect(h.adapter.postMessage(SMS_THREAD, "hi")).rejects.toMatchObject({
      twilioCode: 21211,
    });
    expect(h.fake.requests.filter((r) => r.path.endsWith("/Messages.json"))).toHaveLength(1);
  });

  it("turns Twilio's 63016 refusal into a TwilioSessionWindowError", async () => {
    const h = await harness();
    h.fake.failNext("messages.create", { status: 400, code: 63016 });

    await expect(h.adapter.postMessage(WHATSAPP_THREAD, "hi")).rejects.toBeInstanceOf(
      TwilioSessionWindowError,
    );
  });

  it("refuses edits and reactions with NotSupportedError, and deletes through the API", async () => {
    const h = await harness();
    const sent = await h.chat.thread(SMS_THREAD).post("oops");

    await expect(sent.edit("fixed")).rejects.toBeInstanceOf(NotSupportedError);
    await expect(sent.addReaction("thumbs_up")).rejects.toBeInstanceOf(NotSupportedError);
    await sent.delete();

    expect(h.fake.messages[0]?.deleted).toBe(true);
  });

  it("shows WhatsApp's typing indicator in reply to the customer's latest message", async () => {
    const h = await harness();
    h.chat.onDirectMessage(async (thread) => {
      await thread.startTyping();
    });

    await h.deliver(
      h.sms("hello", {
        MessageSid: "SMwhatsapp1",
        From: "whatsapp:+15550000002",
        To: "whatsapp:+15550000001",
      }),
    );

    expect(h.fake.typingIndicators).toEqual(["SMwhatsapp1"]);
  });
});
