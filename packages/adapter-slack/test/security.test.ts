import { sleep } from "@baton/core";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackWebhookRequest, slackSignature } from "../src/testing/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

const EVENT = {
  type: "message",
  user: "U123",
  channel: "C456",
  text: "<@U0BOT00001> hi",
  ts: "1234567890.123456",
};

/** A harness whose handlers record every run, and a check that nothing ran, was written or called. */
async function guarded(config: Parameters<typeof createSlackHarness>[0] = {}) {
  const h = await createSlackHarness(config);
  harnesses.push(h);
  h.fake.reset();
  const runs: string[] = [];
  h.chat.onNewMention((_thread, message) => {
    runs.push(message.text);
  });
  h.chat.onNewMessage(/.*/, (_thread, message) => {
    runs.push(message.text);
  });
  h.chat.onAction((event) => {
    runs.push(`action ${event.actionId}`);
  });
  h.chat.onSlashCommand((event) => {
    runs.push(`command ${event.command}`);
  });
  const untouched = async () => {
    await h.settle();
    expect(runs).toEqual([]);
    expect(await h.state.get(`dedupe:slack:${h.fake.teamId}:C456:${EVENT.ts}`)).toBeNull();
    expect(h.fake.calls).toEqual([]);
  };
  return { h, runs, untouched };
}

describe("a request Slack did not sign now is refused before anything runs", () => {
  it("answers 401 to a request signed with another secret", async () => {
    const { h, untouched } = await guarded();
    const request = createSlackWebhookRequest({
      signingSecret: "not-the-secret",
      json: h.envelope(EVENT),
      nowMs: h.clock.now(),
    });
    expect((await h.webhook(request, { waitUntil: h.waitUntil })).status).toBe(401);
    await untouched();
  });

  it("answers 401 to a stale timestamp (more than 300 s ago)", async () => {
    const { h, untouched } = await guarded();
    const seconds = Math.floor(h.clock.now() / 1_000) - 301;
    const response = await h.webhook(
      h.request({ json: h.envelope(EVENT), timestampSeconds: seconds }),
    );
    expect(response.status).toBe(401);
    await untouched();
  });

  it("answers 401 to a timestamp from the future, which bolt alone would accept", async () => {
    const { h, untouched } = await guarded();
    const seconds = Math.floor(h.clock.now() / 1_000) + 301;
    const response = await h.webhook(
      h.request({ json: h.envelope(EVENT), timestampSeconds: seconds }),
    );
    expect(response.status).toBe(401);
    await untouched();
  });

  it("accepts a timestamp within 300 s either way", async () => {
    const { h, runs } = await guarded();
    const now = Math.floor(h.clock.now() / 1_000);
    const early = await h.webhook(
      h.request({ json: h.envelope(EVENT), timestampSeconds: now + 299 }),
    );
    const late = await h.webhook(
      h.request({
        json: h.envelope({ ...EVENT, ts: "1234567890.2" }),
        timestampSeconds: now - 299,
      }),
    );
    expect([early.status, late.status]).toEqual([200, 200]);
    expect(runs).toHaveLength(2);
  });

  it("answers 401 when the body was swapped after signing", async () => {
    const { h, untouched } = await guarded();
    const signed = h.request({ json: h.envelope({ ...EVENT, text: "harmless" }) });
    const swapped = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: JSON.stringify(h.envelope(EVENT)),
    });
    expect((await h.webhook(swapped)).status).toBe(401);
    await untouched();
  });

  it("answers 401 to missing or malformed signature headers", async () => {
    const { h, untouched } = await guarded();
    const json = h.envelope(EVENT);
    for (const request of [
      h.request({ json, signature: null }),
      h.request({ json, omitTimestamp: true }),
      h.request({ json, signature: "v1=abc" }),
      h.request({ json, signature: "" }),
      h.request({ json, timestampSeconds: Number.NaN }),
    ]) {
      expect((await h.webhook(request)).status).toBe(401);
    }
    await untouched();
  });

  it("never echoes a url_verification challenge before the signature check", async () => {
    const { h } = await guarded();
    const response = await h.webhook(
      h.request({ json: { type: "url_verification", challenge: "steal-me" }, signature: "v0=00" }),
    );
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("steal-me");
  });

  it("refuses forged slash commands and interactions the same way", async () => {
    const { h, untouched } = await guarded();
    const forgedForm = h.request({
      form: { command: "/deploy", text: "prod" },
      signature: "v0=bad",
    });
    const payload = JSON.stringify({ type: "block_actions", actions: [{ action_id: "x" }] });
    const forgedAction = h.request({ form: { payload }, signature: "v0=bad" });
    expect((await h.webhook(forgedForm)).status).toBe(401);
    expect((await h.webhook(forgedAction)).status).toBe(401);
    await untouched();
  });

  it("answers 413 to a body over the limit, unread", async () => {
    const { h, untouched } = await guarded({ maxBodyBytes: 64 });
    expect((await h.deliver(h.envelope(EVENT))).status).toBe(413);
    await untouched();
  });

  it("answers 405 to a GET and 415 to another media type", async () => {
    const { h, untouched } = await guarded();
    const get = new Request("https://bot.example.com/api/slack", { method: "GET" });
    expect((await h.webhook(get)).status).toBe(405);
    const text = new Request("https://bot.example.com/api/slack", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "hi",
    });
    expect((await h.webhook(text)).status).toBe(415);
    await untouched();
  });

  it("answers 4xx to random bodies, content types and signatures, and never throws", async () => {
    const { h, untouched } = await guarded();
    const seconds = String(Math.floor(h.clock.now() / 1_000));
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain", ""),
        fc.option(fc.string({ maxLength: 80 }), { nil: null }),
        async (body, type, signature) => {
          const headers: Record<string, string> = { "x-slack-request-timestamp": seconds };
          if (type !== "") headers["content-type"] = type;
          if (signature !== null) headers["x-slack-signature"] = signature;
          const response = await h.webhook(
            new Request("https://bot.example.com/api/slack", { method: "POST", headers, body }),
          );
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150, seed: 4_242 },
    );
    await untouched();
  });

  it("answers every correctly signed body below 500, whatever its JSON or form holds", async () => {
    const h = await createSlackHarness();
    harnesses.push(h);
    const seconds = Math.floor(h.clock.now() / 1_000);
    const event = fc.record(
      {
        type: fc.constantFrom("message", "app_mention", "reaction_added", "message_changed", "x"),
        subtype: fc.constantFrom(undefined, "message_changed", "message_deleted", "bot_message"),
        channel: fc.constantFrom(undefined, "C1", "D1", 7),
        ts: fc.constantFrom(undefined, "1.2", "", 3),
        text: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null)),
        item: fc.constantFrom(undefined, {}, { type: "message", channel: "C1", ts: "1.1" }),
      },
      { requiredKeys: ["type"] },
    );
    const body = fc.oneof(
      fc
        .record({ type: fc.constant("event_callback"), team_id: fc.constantFrom("T1", 5), event })
        .map((j) => ({ json: JSON.stringify(j), type: "application/json" })),
      fc.jsonValue().map((j) => ({ json: JSON.stringify(j), type: "application/json" })),
      fc
        .dictionary(
          fc.constantFrom("payload", "command", "text", "ssl_check"),
          fc.string({ maxLength: 30 }),
        )
        .map((form) => ({
          json: new URLSearchParams(form).toString(),
          type: "application/x-www-form-urlencoded",
        })),
    );
    await fc.assert(
      fc.asyncProperty(body, async ({ json, type }) => {
        const response = await h.webhook(
          new Request("https://bot.example.com/api/slack", {
            method: "POST",
            headers: {
              "content-type": type,
              "x-slack-request-timestamp": String(seconds),
              "x-slack-signature": slackSignature(h.fake.signingSecret, seconds, json),
            },
            body: json,
          }),
          { waitUntil: h.waitUntil },
        );
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 200, seed: 1_337 },
    );
    await h.settle();
  });
});

describe("the answer comes before any platform call", () => {
  it("makes no Web API call before acknowledging a reaction: its thread look-up runs after", async () => {
    const h = await createSlackHarness({}, { dispatch: "deferred" });
    harnesses.push(h);
    const parent = h.fake.store.add({
      channel: "C456",
      text: "hi",
      user: "U1",
      team: h.fake.teamId,
    });
    h.fake.reset();
    const tasks: Promise<unknown>[] = [];
    const response = await h.webhook(
      h.request({
        json: h.envelope({
          type: "reaction_added",
          user: "U1",
          reaction: "fire",
          item: { type: "message", channel: "C456", ts: parent.ts },
        }),
      }),
      { waitUntil: (task) => tasks.push(task) },
    );
    expect(response.status).toBe(200);
    const callsAtAnswer = h.fake.calls.length;
    await Promise.all(tasks);
    expect(callsAtAnswer).toBe(0);
    expect(h.fake.callsOf("conversations.replies")).toHaveLength(1);
  });

  it("answers 503 with Retry-After at the admission bound, so Slack retries", async () => {
    const h = await createSlackHarness({}, { dispatch: "deferred", maxDetached: 1 });
    harnesses.push(h);
    h.chat.onNewMention(async () => {
      await sleep(h.clock, 1_000);
    });
    const tasks: Promise<unknown>[] = [];
    const waitUntil = (task: Promise<unknown>) => tasks.push(task);
    const accepted = await h.webhook(h.request({ json: h.envelope(EVENT) }), { waitUntil });
    const refused = await h.webhook(
      h.request({ json: h.envelope({ ...EVENT, ts: "1234567890.999999" }) }),
      { waitUntil },
    );
    expect(accepted.status).toBe(200);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    await h.clock.advance(1_000);
    await Promise.all(tasks);
  });
});

describe("verifySlackSignature", () => {
  const signingSecret = "8f742231b10e8888abcd99yyyzzz85a5";
  const body = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&command=%2Fweather&text=94070";
  const seconds = 1_531_420_618;
  const nowMs = seconds * 1_000 + 10_000;

  it("accepts a valid Slack signature", async () => {
    const { verifySlackSignature } = await import("../src/index.js");
    const signature = slackSignature(signingSecret, seconds, body);
    expect(
      verifySlackSignature({ signingSecret, body, signature, timestamp: String(seconds), nowMs }),
    ).toBe(true);
  });

  it("rejects stale timestamps", async () => {
    const { verifySlackSignature } = await import("../src/index.js");
    const signature = slackSignature(signingSecret, seconds, body);
    const later = seconds * 1_000 + 301_000;
    expect(
      verifySlackSignature({
        signingSecret,
        body,
        signature,
        timestamp: String(seconds),
        nowMs: later,
      }),
    ).toBe(false);
    const earlier = seconds * 1_000 - 301_000;
    expect(
      verifySlackSignature({
        signingSecret,
        body,
        signature,
        timestamp: String(seconds),
        nowMs: earlier,
      }),
    ).toBe(false);
  });

  it("rejects invalid signatures", async () => {
    const { verifySlackSignature } = await import("../src/index.js");
    for (const signature of ["", "v0=", "nonsense", "v1=abc", null]) {
      expect(
        verifySlackSignature({ signingSecret, body, signature, timestamp: String(seconds), nowMs }),
      ).toBe(false);
    }
  });

  it("rejects well-formed signatures with the wrong digest", async () => {
    const { verifySlackSignature } = await import("../src/index.js");
    const other = slackSignature("another-secret", seconds, body);
    expect(other).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(
      verifySlackSignature({
        signingSecret,
        body,
        signature: other,
        timestamp: String(seconds),
        nowMs,
      }),
    ).toBe(false);
  });
});
