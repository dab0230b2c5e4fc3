import { describe, expect, it } from "vitest";
import { parseSlackWebhookBody, SlackWebhookParseError } from "../src/index.js";
import { createSlackWebhookRequest } from "../src/testing/index.js";
import { harness, recordMessages } from "./webhook-helpers.js";

describe("handleWebhook - signature verification", () => {
  const urlVerification = { type: "url_verification", challenge: "c" };

  it("rejects requests without timestamp header", async () => {
    const h = await harness();
    const response = await h.webhook(h.request({ json: urlVerification, omitTimestamp: true }));
    expect(response.status).toBe(401);
  });

  it("rejects requests without signature header", async () => {
    const h = await harness();
    const response = await h.webhook(h.request({ json: urlVerification, signature: null }));
    expect(response.status).toBe(401);
  });

  it("rejects requests with invalid signature", async () => {
    const h = await harness();
    const response = await h.webhook(h.request({ json: urlVerification, signature: "v0=invalid" }));
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('"challenge"');
  });

  it("rejects requests with old timestamp (>5 min)", async () => {
    const h = await harness();
    const old = Math.floor(h.clock.now() / 1_000) - 400;
    const response = await h.webhook(h.request({ json: urlVerification, timestampSeconds: old }));
    expect(response.status).toBe(401);
  });

  it("accepts requests with valid signature", async () => {
    const h = await harness();
    const response = await h.deliver({ type: "url_verification", challenge: "test-challenge" });
    expect(response.status).toBe(200);
  });
});

describe("handleWebhook - URL verification", () => {
  it("responds to url_verification challenge", async () => {
    const h = await harness();
    const response = await h.deliver({ type: "url_verification", challenge: "test-challenge-123" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: "test-challenge-123" });
  });
});

describe("handleWebhook - event_callback", () => {
  it("handles message events", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    const response = await h.deliver(
      h.envelope({
        type: "message",
        user: "U123",
        channel: "C456",
        text: "Hello world",
        ts: "1234567890.123456",
      }),
    );
    expect(response.status).toBe(200);
    // Upstream answers "ok"; Baton acknowledges with an empty body (ADR 0028).
    expect(await response.text()).toBe("");
    expect(seen).toEqual([
      {
        route: "pattern",
        threadId: "slack:C456:1234567890.123456",
        text: "Hello world",
        isMention: false,
      },
    ]);
  });

  it("handles app_mention events", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    const response = await h.deliver(
      h.envelope({
        type: "app_mention",
        user: "U123",
        channel: "C456",
        text: "<@U_BOT> hello",
        ts: "1234567890.123456",
      }),
    );
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      {
        route: "mention",
        threadId: "slack:C456:1234567890.123456",
        text: "@U_BOT hello",
        isMention: true,
      },
    ]);
  });

  it("handles reaction_added events", async () => {
    const h = await harness();
    const parent = h.fake.store.add({
      channel: "C456",
      text: "hi",
      user: "U1",
      team: h.fake.teamId,
    });
    const seen: string[] = [];
    h.chat.onReaction((event) => {
      seen.push(
        `${event.added ? "+" : "-"}${event.rawEmoji} ${event.thread?.id} ${event.messageId}`,
      );
    });
    const response = await h.deliver(
      h.envelope({
        type: "reaction_added",
        user: "U123",
        reaction: "thumbsup",
        item: { type: "message", channel: "C456", ts: parent.ts },
      }),
    );
    await h.settle();
    expect(response.status).toBe(200);
    expect(seen).toEqual([`+thumbsup slack:C456:${parent.ts} ${h.fake.teamId}:C456:${parent.ts}`]);
  });

  it("handles reaction_removed events", async () => {
    const h = await harness();
    const parent = h.fake.store.add({
      channel: "C456",
      text: "hi",
      user: "U1",
      team: h.fake.teamId,
    });
    const seen: boolean[] = [];
    h.chat.onReaction((event) => {
      seen.push(event.added);
    });
    const response = await h.deliver(
      h.envelope({
        type: "reaction_removed",
        user: "U123",
        reaction: "thumbsup",
        item: { type: "message", channel: "C456", ts: parent.ts },
      }),
    );
    await h.settle();
    expect(response.status).toBe(200);
    expect(seen).toEqual([false]);
  });

  it("resolves parent thread_ts for reactions on threaded replies", async () => {
    const h = await harness();
    const parent = h.fake.store.add({
      channel: "C456",
      text: "parent",
      user: "U1",
      team: h.fake.teamId,
    });
    const reply = h.fake.store.add({
      channel: "C456",
      text: "reply",
      user: "U1",
      team: h.fake.teamId,
      thread_ts: parent.ts,
    });
    const seen: Array<{ threadId?: string; messageId: string }> = [];
    h.chat.onReaction((event) => {
      seen.push({ threadId: event.thread?.id, messageId: event.messageId });
    });
    await h.deliver(
      h.envelope({
        type: "reaction_added",
        user: "U123",
        reaction: "thumbsup",
        item: { type: "message", channel: "C456", ts: reply.ts },
      }),
    );
    await h.settle();
    expect(seen).toEqual([
      { threadId: `slack:C456:${parent.ts}`, messageId: `${h.fake.teamId}:C456:${reply.ts}` },
    ]);
  });
});

describe("handleWebhook - JSON parsing", () => {
  it("returns 400 for invalid JSON", async () => {
    const h = await harness();
    const body = "not json";
    const signed = h.request({ json: {} });
    const headers = new Headers(signed.headers);
    const { slackSignature } = await import("../src/testing/index.js");
    const seconds = Number(headers.get("x-slack-request-timestamp"));
    headers.set("x-slack-signature", slackSignature(h.fake.signingSecret, seconds, body));
    const response = await h.webhook(new Request(signed.url, { method: "POST", headers, body }));
    expect(response.status).toBe(400);
  });
});

describe("the signed-request builder of the testing kit", () => {
  it("signs so that bolt's own isValidSlackRequest accepts it", async () => {
    const { isValidSlackRequest } = await import("@slack/bolt");
    const nowMs = 1_700_000_000_000;
    const request = createSlackWebhookRequest({ signingSecret: "s3cret", json: { a: 1 }, nowMs });
    expect(
      isValidSlackRequest({
        signingSecret: "s3cret",
        body: await request.text(),
        headers: {
          "x-slack-signature": request.headers.get("x-slack-signature") ?? "",
          "x-slack-request-timestamp": Number(request.headers.get("x-slack-request-timestamp")),
        },
        nowMilliseconds: nowMs,
      }),
    ).toBe(true);
  });
});

describe("parseSlackWebhookBody", () => {
  const JSON_TYPE = "application/json";
  const FORM_TYPE = "application/x-www-form-urlencoded";
  const interaction = (payload: Record<string, unknown>) =>
    parseSlackWebhookBody(
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      FORM_TYPE,
    );

  it("parses url verification payloads", () => {
    expect(
      parseSlackWebhookBody(
        JSON.stringify({ type: "url_verification", challenge: "abc" }),
        JSON_TYPE,
      ),
    ).toEqual({ kind: "url_verification", challenge: "abc" });
  });

  it("parses direct message events", () => {
    const parsed = parseSlackWebhookBody(
      JSON.stringify({
        type: "event_callback",
        team_id: "T1",
        event_id: "Ev1",
        event: {
          type: "message",
          channel: "D123",
          channel_type: "im",
          user: "U1",
          text: "hi",
          ts: "1.2",
        },
      }),
      JSON_TYPE,
    );
    expect(parsed).toMatchObject({
      kind: "event",
      teamId: "T1",
      eventId: "Ev1",
      event: { type: "message", channel: "D123", user: "U1", text: "hi", ts: "1.2" },
    });
  });

  it("parses slash command form posts", () => {
    const body = new URLSearchParams({
      command: "/deploy",
      text: "prod",
      user_id: "U1",
    }).toString();
    expect(parseSlackWebhookBody(body, FORM_TYPE)).toEqual({
      kind: "command",
      params: { command: "/deploy", text: "prod", user_id: "U1" },
    });
  });

  it("parses block action payloads", () => {
    const payload = { type: "block_actions", actions: [{ action_id: "go", value: "1" }] };
    expect(interaction(payload)).toEqual({ kind: "interaction", type: "block_actions", payload });
  });

  it("parses block suggestion payloads", () => {
    const payload = { type: "block_suggestion", action_id: "pick", value: "ab" };
    expect(interaction(payload)).toMatchObject({ kind: "interaction", type: "block_suggestion" });
  });

  it("parses view submissions", () => {
    const payload = { type: "view_submission", view: { id: "V1", callback_id: "form" } };
    expect(interaction(payload)).toEqual({ kind: "interaction", type: "view_submission", payload });
  });

  it("parses view closed payloads", () => {
    const payload = { type: "view_closed", view: { id: "V1" }, is_cleared: false };
    expect(interaction(payload)).toMatchObject({ kind: "interaction", type: "view_closed" });
  });

  it("returns unsupported for valid but unsupported payloads", () => {
    expect(parseSlackWebhookBody(JSON.stringify({ type: "app_rate_limited" }), JSON_TYPE)).toEqual({
      kind: "other",
      type: "app_rate_limited",
    });
  });

  it("throws a parse error for invalid json", () => {
    expect(() => parseSlackWebhookBody("{not json", JSON_TYPE)).toThrow(SlackWebhookParseError);
  });
});
