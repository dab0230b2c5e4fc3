import { describe, expect, it } from "vitest";
import { createSlackWebhookRequest, slackSignature } from "../src/testing/index.js";
import {
  parseSlackWebhookBody,
  readSlackWebhook,
  type SlackEventCallback,
  SlackWebhookParseError,
  SlackWebhookVerificationError,
  slackContinuationOf,
  slackRetryOf,
  slackSignatureHeaders,
  verifySlackRequest,
  verifySlackSignature,
} from "../src/webhook/index.js";

// The `@baton/adapter-slack/webhook` subpath: the checks the adapter runs on each request, for a
// handler that routes Slack's events itself.
const secret = "8f742231b10e8888abcd99yyyzzz85a5";
const seconds = 1_531_420_618;
const now = () => seconds * 1_000;

function signed(json: unknown, timestampSeconds = seconds) {
  return createSlackWebhookRequest({ signingSecret: secret, json, timestampSeconds });
}

describe("verifySlackSignature", () => {
  it("accepts plain object headers case-insensitively", () => {
    const body = "payload";
    const headers = {
      "Content-Type": "application/json",
      "X-Slack-Request-Timestamp": String(seconds),
      "X-Slack-Signature": slackSignature(secret, seconds, body),
    };
    const check = { signingSecret: secret, body, nowMs: now() };
    expect(verifySlackSignature({ ...check, ...slackSignatureHeaders(headers) })).toBe(true);
    // The same lookup finds nothing under another name, and a tampered body still fails.
    expect(slackSignatureHeaders({ "X-Slack-Sig": "v0=1" })).toEqual({
      signature: null,
      timestamp: null,
    });
    expect(
      verifySlackSignature({ ...check, body: "payload!", ...slackSignatureHeaders(headers) }),
    ).toBe(false);
  });
});

describe("verifySlackRequest", () => {
  it("returns the verified body", async () => {
    const json = { type: "event_callback" };
    await expect(verifySlackRequest(signed(json), { now, signingSecret: secret })).resolves.toBe(
      JSON.stringify(json),
    );
    // Six minutes later the same request is stale; another secret never matches.
    await expect(
      verifySlackRequest(signed(json), { now: () => now() + 360_000, signingSecret: secret }),
    ).rejects.toMatchObject({ name: "SlackWebhookVerificationError", reason: "bad_signature" });
    await expect(
      verifySlackRequest(signed(json), { now, signingSecret: "another" }),
    ).rejects.toBeInstanceOf(SlackWebhookVerificationError);
    await expect(verifySlackRequest(signed(json), { now })).rejects.toMatchObject({
      reason: "no_secret",
    });
  });

  it("uses a custom verifier", async () => {
    const seen: string[] = [];
    const request = () =>
      new Request("https://example.com", {
        body: "payload",
        headers: { "x-gateway": "checked" },
        method: "POST",
      });
    const verifier = ({ body, headers }: { body: string; headers: Headers }) => {
      seen.push(body);
      return headers.get("x-gateway") === "checked";
    };
    await expect(verifySlackRequest(request(), { webhookVerifier: verifier })).resolves.toBe(
      "payload",
    );
    expect(seen).toEqual(["payload"]);
    const unchecked = new Request("https://example.com", { body: "payload", method: "POST" });
    await expect(
      verifySlackRequest(unchecked, { webhookVerifier: verifier }),
    ).rejects.toBeInstanceOf(SlackWebhookVerificationError);
  });

  it("allows a custom verifier to replace the body", async () => {
    const verifiedBody = JSON.stringify({ challenge: "challenge-value", type: "url_verification" });
    const payload = await readSlackWebhook(
      new Request("https://example.com", {
        body: "original",
        headers: { "content-type": "application/json" },
        method: "POST",
      }),
      { webhookVerifier: () => verifiedBody },
    );
    expect(payload).toEqual({ challenge: "challenge-value", kind: "url_verification" });
  });
});

describe("parseSlackWebhookBody", () => {
  it("parses app mentions with provider-native continuation", () => {
    const body = {
      api_app_id: "A123",
      event: {
        channel: "C123",
        text: "<@U999> hello",
        files: [
          {
            id: "F123",
            mimetype: "image/png",
            name: "chart.png",
            size: 123,
            url_private: "https://files.slack.com/files-pri/chart.png",
          },
        ],
        thread_ts: "1710000000.000001",
        ts: "1710000000.000002",
        type: "app_mention",
        user: "U123",
      },
      event_id: "Ev123",
      team_id: "T123",
      type: "event_callback",
    };
    const payload = parseSlackWebhookBody(JSON.stringify(body), "application/json");
    // Baton's payload keeps Slack's event under `event` (snake_case, as sent) and the envelope
    // as `raw`; the reply target and the retry headers are read by their own helpers.
    expect(payload).toMatchObject({
      kind: "event",
      teamId: "T123",
      eventId: "Ev123",
      event: {
        type: "app_mention",
        channel: "C123",
        user: "U123",
        text: "<@U999> hello",
        ts: "1710000000.000002",
        thread_ts: "1710000000.000001",
        files: [
          {
            id: "F123",
            mimetype: "image/png",
            name: "chart.png",
            size: 123,
            url_private: "https://files.slack.com/files-pri/chart.png",
          },
        ],
      },
      raw: { api_app_id: "A123" },
    });
    expect(slackContinuationOf(payload as SlackEventCallback)).toEqual({
      channelId: "C123",
      teamId: "T123",
      threadTs: "1710000000.000001",
    });
    expect(
      slackRetryOf({ "X-Slack-Retry-Num": "2", "x-slack-retry-reason": "http_timeout" }),
    ).toEqual({ num: 2, reason: "http_timeout" });
    expect(slackRetryOf(new Headers())).toBeUndefined();
  });

  it("uses ts as threadTs when app mentions are top-level messages", () => {
    const payload = parseSlackWebhookBody(
      JSON.stringify({
        event: {
          channel: "C123",
          text: "hello",
          ts: "1710000000.000002",
          type: "app_mention",
          user: "U123",
        },
        team_id: "T123",
        type: "event_callback",
      }),
      "application/json",
    );
    expect(payload.kind).toBe("event");
    expect(slackContinuationOf(payload as SlackEventCallback)).toEqual({
      channelId: "C123",
      teamId: "T123",
      threadTs: "1710000000.000002",
    });
  });
});

describe("readSlackWebhook", () => {
  it("verifies and parses requests", async () => {
    const json = { challenge: "challenge-value", type: "url_verification" };
    await expect(readSlackWebhook(signed(json), { now, signingSecret: secret })).resolves.toEqual({
      challenge: "challenge-value",
      kind: "url_verification",
    });
    // Verification comes first: a forged request is refused before its body is parsed.
    const forged = createSlackWebhookRequest({
      signingSecret: "not-the-secret",
      json: "{",
      timestampSeconds: seconds,
    });
    await expect(readSlackWebhook(forged, { now, signingSecret: secret })).rejects.toBeInstanceOf(
      SlackWebhookVerificationError,
    );
    const broken = new Request("https://example.com", {
      body: "{",
      headers: { "content-type": "application/json" },
      method: "POST",
    });
    await expect(readSlackWebhook(broken, { webhookVerifier: () => true })).rejects.toBeInstanceOf(
      SlackWebhookParseError,
    );
  });
});
