import { sleep } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { BOT_NUMBER, createTwilioHarness } from "./twilio-harness.js";

const ALICE = "+15550000011";
const BOB = "+15550000022";

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

describe("conversations on one number", () => {
  it("handles two customers texting the same number at once in parallel, each conversation in order", async () => {
    const h = await createTwilioHarness({}, { dispatch: "deferred", concurrency: "queue" });
    harnesses.push(h);
    const log: string[] = [];
    h.chat.onDirectMessage(async (_thread, message, context) => {
      log.push(`start ${message.author.userId} ${message.text}`);
      await sleep(h.clock, 1_000);
      const skipped = context.skipped.map((m) => m.text).join(",");
      log.push(`end ${message.author.userId} ${message.text}${skipped ? ` (+${skipped})` : ""}`);
    });
    const tasks: Promise<unknown>[] = [];
    const waitUntil = (task: Promise<unknown>) => tasks.push(task);
    const send = (from: string, body: string) =>
      h.webhook(h.request(h.sms(body, { From: from, To: BOT_NUMBER })), { waitUntil });

    expect((await send(ALICE, "a1")).status).toBe(200);
    expect((await send(BOB, "b1")).status).toBe(200);
    expect((await send(ALICE, "a2")).status).toBe(200);
    await h.clock.advance(10);
    // Both customers' first messages run at the same time: they are different threads.
    expect(log).toEqual([`start ${ALICE} a1`, `start ${BOB} b1`]);

    await h.clock.advance(1_000);
    await h.clock.advance(1_000);
    await Promise.all(tasks);

    // Alice's second message waited for her first, then ran; Bob was never behind Alice.
    expect(log.filter((line) => line.includes(ALICE))).toEqual([
      `start ${ALICE} a1`,
      `end ${ALICE} a1`,
      `start ${ALICE} a2`,
      `end ${ALICE} a2`,
    ]);
    expect(log.indexOf(`end ${BOB} b1`)).toBeLessThan(log.indexOf(`end ${ALICE} a2`));
  });

  it("runs a message Twilio delivers twice (same MessageSid) once", async () => {
    const h = await createTwilioHarness();
    harnesses.push(h);
    const runs: string[] = [];
    h.chat.onDirectMessage((_thread, message) => {
      runs.push(message.id);
    });
    const params = h.sms("once please");

    const first = await h.deliver(params);
    const retry = await h.deliver(params);

    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(runs).toEqual([params.MessageSid]);
  });

  it("answers 503 with Retry-After at the admission bound, so Twilio can retry", async () => {
    const h = await createTwilioHarness({}, { dispatch: "deferred", maxDetached: 1 });
    harnesses.push(h);
    h.chat.onDirectMessage(async () => {
      await sleep(h.clock, 1_000);
    });
    const tasks: Promise<unknown>[] = [];
    const waitUntil = (task: Promise<unknown>) => tasks.push(task);

    const accepted = await h.webhook(h.request(h.sms("first")), { waitUntil });
    const refused = await h.webhook(h.request(h.sms("second")), { waitUntil });

    expect(accepted.status).toBe(200);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    await h.clock.advance(1_000);
    await Promise.all(tasks);
  });
});
