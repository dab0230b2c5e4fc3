import { Actions, Button, Card, CardText, RateLimitError } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { encodeTeamsThreadId, TeamsApiError } from "../src/index.js";
import { CHANNEL, retryScheduled, trackHarnesses, USER } from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

async function withThread(conversationId = `${CHANNEL};messageid=1767224924000`) {
  const h = await harnesses.open();
  const threadId = encodeTeamsThreadId({ conversationId, serviceUrl: h.fake.serviceUrl });
  return { h, threadId, conversationId };
}

// Ported from upstream packages/adapter-teams/src/index.test.ts (titles verbatim), against the
// offline fake connector instead of a mocked SDK app.
describe("postMessage", () => {
  it("should call app.send and return message ID", async () => {
    const { h, threadId, conversationId } = await withThread();
    const result = await h.adapter.postMessage(threadId, { markdown: "Hi there" });
    const [call] = h.fake.callsTo("activities.create");
    expect(result.id).not.toBe("");
    expect(result.threadId).toBe(threadId);
    expect(h.fake.callsTo("activities.create")).toHaveLength(1);
    // The reply chain's conversation id (with ;messageid=) is what puts the post in the chain.
    expect(call?.conversationId).toBe(conversationId);
    expect(call?.body).toMatchObject({ type: "message", text: "Hi there", textFormat: "markdown" });
    expect(call?.token).toMatch(/^ey/);
  });
});

describe("postEphemeral", () => {
  it("should send a targeted text message to the requested user", async () => {
    const { h, threadId } = await withThread();
    const result = await h.adapter.postEphemeral(threadId, USER.id, "only for you");
    const [call] = h.fake.callsTo("activities.create");
    expect(call?.targeted).toBe(true);
    expect(call?.body).toMatchObject({ text: "only for you", recipient: { id: USER.id } });
    expect(result).toMatchObject({ threadId, usedFallback: false });
    expect(result.id).not.toBe("");
  });

  it("should send targeted adaptive cards", async () => {
    const { h, threadId } = await withThread();
    await h.adapter.postEphemeral(threadId, USER.id, Card({ title: "Just you" }));
    const [call] = h.fake.callsTo("activities.create");
    expect(call?.targeted).toBe(true);
    expect(call?.body).toMatchObject({
      recipient: { id: USER.id },
      attachments: [{ contentType: "application/vnd.microsoft.card.adaptive" }],
    });
  });

  // Upstream's "should handle targeted send failure by calling handleTeamsError" expects its
  // error family (handleTeamsError); Baton's refusal is a TeamsApiError — divergent (ADR 0023).
  it("rejects a targeted send the connector refuses with a TeamsApiError keeping status and code", async () => {
    const { h, threadId } = await withThread();
    h.fake.failNext("activities.create", { status: 403, code: "Forbidden" });
    await expect(h.adapter.postEphemeral(threadId, USER.id, "x")).rejects.toMatchObject({
      status: 403,
      connectorCode: "Forbidden",
    });
  });

  it("falls back to a normal post in a 1:1 chat instead of a targeted send", async () => {
    const { h, threadId } = await withThread("a:personal-1");
    await h.adapter.postEphemeral(threadId, USER.id, "hi");
    const [call] = h.fake.callsTo("activities.create");
    expect(call?.targeted).toBeUndefined();
    expect(call?.body?.recipient).toBeUndefined();
  });
});

describe("editMessage", () => {
  it("should call api.conversations.activities.update", async () => {
    const { h, threadId } = await withThread();
    const result = await h.adapter.editMessage(threadId, "edit-msg-1", {
      markdown: "Updated text",
    });
    expect(result.id).toBe("edit-msg-1");
    expect(result.threadId).toBe(threadId);
    const updates = h.fake.callsTo("activities.update");
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ activityId: "edit-msg-1", body: { text: "Updated text" } });
  });
});

describe("deleteMessage", () => {
  it("should call api.conversations.activities.delete", async () => {
    const { h, threadId } = await withThread();
    await expect(h.adapter.deleteMessage(threadId, "del-msg-1")).resolves.not.toThrow();
    expect(h.fake.callsTo("activities.delete").map((call) => call.activityId)).toEqual([
      "del-msg-1",
    ]);
  });
});

describe("reactions", () => {
  it("should add a raw Teams reaction ID", async () => {
    const { h, threadId } = await withThread();
    await h.adapter.addReaction(threadId, "msg-1", "1f525_fire");
    expect(h.fake.callsTo("reactions.add")).toHaveLength(1);
    expect(h.fake.calls[0]?.method).toBe("PUT");
  });

  /** Adds `emoji` through the adapter and answers the reaction id the connector received. */
  async function sentReaction(emoji: string) {
    const { h, threadId } = await withThread();
    await h.adapter.addReaction(threadId, "msg-1", emoji);
    const [call] = h.fake.callsTo("reactions.add");
    expect(call?.activityId).toBe("msg-1");
    return h.fake.reactionOf(call);
  }

  it("should map check to the Teams reaction ID 2705_whiteheavycheckmark", async () => {
    expect(await sentReaction("check")).toBe("2705_whiteheavycheckmark");
  });

  it("should map eyes to the Teams reaction ID 1f440_eyes", async () => {
    expect(await sentReaction("eyes")).toBe("1f440_eyes");
  });

  it("should map pin to the Teams reaction ID 1f4cc_pushpin", async () => {
    expect(await sentReaction("pin")).toBe("1f4cc_pushpin");
  });

  it("should map rocket to the Teams reaction ID launch", async () => {
    expect(await sentReaction("rocket")).toBe("launch");
  });

  it("should map thinking to the Teams reaction ID think", async () => {
    expect(await sentReaction("thinking")).toBe("think");
  });

  it("should map thumbs_up to the Teams reaction ID like", async () => {
    expect(await sentReaction("thumbs_up")).toBe("like");
  });

  it("should map x to the Teams reaction ID 274c_crossmark", async () => {
    expect(await sentReaction("x")).toBe("274c_crossmark");
  });

  it("should remove a reaction with the Teams conversation API", async () => {
    const { h, threadId } = await withThread();
    await h.adapter.removeReaction(threadId, "msg-1", "thumbs_up");
    const [call] = h.fake.callsTo("reactions.delete");
    expect(call?.method).toBe("DELETE");
    expect(h.fake.reactionOf(call)).toBe("like");
  });

  // Upstream's "should translate Teams API failures" expects its handleTeamsError family;
  // Baton's refusal is a TeamsApiError — divergent (ADR 0023).
  it("rejects a reaction the connector refuses with a TeamsApiError keeping status and code", async () => {
    const { h, threadId } = await withThread();
    h.fake.failNext("reactions.add", { status: 404, code: "ActivityNotFound" });
    const failure = h.adapter.addReaction(threadId, "gone", "thumbs_up");
    await expect(failure).rejects.toBeInstanceOf(TeamsApiError);
    await expect(failure).rejects.toMatchObject({ status: 404, connectorCode: "ActivityNotFound" });
  });
});

describe("startTyping", () => {
  it("should send typing activity via app.send", async () => {
    const { h, threadId } = await withThread();
    await h.adapter.startTyping(threadId);
    expect(h.fake.callsTo("activities.create").map((call) => call.body?.type)).toEqual(["typing"]);
  });
});

describe("outbound (Baton)", () => {
  it("posts a card as an Adaptive Card attachment with its fallback as the summary", async () => {
    const { h, threadId } = await withThread();
    await h.adapter.postMessage(
      threadId,
      Card({
        title: "Deploy?",
        children: [CardText("prod"), Actions([Button({ id: "go", label: "Go" })])],
      }),
    );
    const [call] = h.fake.callsTo("activities.create");
    expect(call?.body).toMatchObject({
      type: "message",
      summary: "**Deploy?**\nprod",
      attachments: [{ contentType: "application/vnd.microsoft.card.adaptive" }],
    });
    const content = (call?.body?.attachments as Array<{ content: { actions: unknown[] } }>)[0]
      ?.content;
    expect(content?.actions).toMatchObject([{ type: "Action.Submit", data: { actionId: "go" } }]);
  });

  it("waits the Retry-After Teams sends on 429 (on the adapter's clock), then succeeds", async () => {
    const { h, threadId } = await withThread();
    h.fake.failNext("activities.create", { status: 429, retryAfterSeconds: 2 });
    const baseline = h.clock.pendingTimers;
    const sending = h.adapter.postMessage(threadId, "eventually");
    await retryScheduled(h.clock, baseline);
    await h.clock.advance(1_999);
    expect(h.fake.callsTo("activities.create")).toHaveLength(1);
    await h.clock.advance(1);
    const sent = await sending;
    expect(sent.id).not.toBe("");
    expect(h.fake.callsTo("activities.create")).toHaveLength(2);
  });

  it("gives up after maxRetries with a RateLimitError carrying Retry-After", async () => {
    const h2 = await harnesses.open({ maxRetries: 0 });
    const thread2 = encodeTeamsThreadId({ conversationId: "a:dm", serviceUrl: h2.fake.serviceUrl });
    h2.fake.failNext("activities.create", { status: 429, retryAfterSeconds: 7 });
    const error = await h2.adapter.postMessage(thread2, "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7_000);
    expect(h2.fake.callsTo("activities.create")).toHaveLength(1);
  });

  it("opens a DM proactively from the reference stored when the user wrote", async () => {
    const h = await harnesses.open();
    await h.deliver(h.message("hello"));
    const threadId = await h.adapter.openDM(USER.id);
    const [create] = h.fake.callsTo("conversations.create");
    expect(create?.body).toMatchObject({ members: [{ id: USER.id }], tenantId: "tenant-1" });
    await h.adapter.postMessage(threadId, "a proactive hello");
    const post = h.fake.callsTo("activities.create").at(-1);
    expect(post?.conversationId).toMatch(/^a:fake-dm-/);
    expect(h.adapter.isDM(threadId)).toBe(true);
  });
});
