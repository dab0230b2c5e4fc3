import type { ActionEvent, Message } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { TEAMS_FOREIGN_SUBMIT_ACTION_ID } from "../src/index.js";
import { PERSONAL_CHAT, TENANT, trackHarnesses } from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

/** A harness recording every action and every message any handler saw. */
async function recording() {
  const h = await harnesses.open();
  const actions: ActionEvent[] = [];
  const messages: Message[] = [];
  h.chat.onAction(async (event) => {
    actions.push(event);
  });
  h.chat.onDirectMessage(async (_thread, message) => {
    messages.push(message);
  });
  h.chat.onNewMessage(/.*/, async (_thread, message) => {
    messages.push(message);
  });
  return { h, actions, messages };
}

/**
 * What Teams sends when a user presses an `Action.Submit` of a card another app posted in a
 * personal chat: a message activity without text, whose `value` is the action's `data` merged
 * with the card's inputs, and whose `replyToId` is the card's message.
 */
function submitFromForeignCard(
  h: Awaited<ReturnType<typeof recording>>["h"],
  value: Record<string, unknown>,
) {
  const activity = h.message("", {
    value,
    replyToId: "1767224000000",
    conversation: { id: PERSONAL_CHAT, conversationType: "personal", tenantId: TENANT },
    channelData: {
      tenant: { id: TENANT },
      source: { name: "message" },
      legacy: { replyToId: "1:1x" },
    },
  });
  delete activity.text;
  delete activity.textFormat;
  return activity;
}

describe("Action.Submit from a card Baton did not build", () => {
  it("reaches onAction with the data's action field as the action id and the data as value", async () => {
    const { h, actions, messages } = await recording();
    const data = { action: "approve", requestId: 4711, comment: "Looks good to me" };
    const response = await h.deliver(submitFromForeignCard(h, data));
    expect(response.status).toBe(200);
    expect(messages).toEqual([]);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ actionId: "approve", messageId: "1767224000000" });
    expect(JSON.parse(actions[0]?.value ?? "null")).toEqual(data);
    expect(actions[0]?.user.userId).toBe("29:user-1");
  });

  it("takes the data's id field when it names no action", async () => {
    const { h, actions } = await recording();
    await h.deliver(submitFromForeignCard(h, { id: "vote-yes", poll: "lunch" }));
    expect(actions.map((event) => event.actionId)).toEqual(["vote-yes"]);
  });

  it("falls back to the Action.Submit id when the data names neither action nor id", async () => {
    const { h, actions, messages } = await recording();
    await h.deliver(submitFromForeignCard(h, { feedbackText: "The report is late", rating: "3" }));
    expect(messages).toEqual([]);
    expect(actions.map((event) => [event.actionId, event.value])).toEqual([
      [
        TEAMS_FOREIGN_SUBMIT_ACTION_ID,
        JSON.stringify({ feedbackText: "The report is late", rating: "3" }),
      ],
    ]);
    expect(TEAMS_FOREIGN_SUBMIT_ACTION_ID).toBe("Action.Submit");
  });

  it("keeps a Baton card's submit as it was: its actionId and its value", async () => {
    const { h, actions } = await recording();
    await h.deliver(submitFromForeignCard(h, { actionId: "approve", value: "req-1", action: "x" }));
    expect(actions.map((event) => [event.actionId, event.value])).toEqual([["approve", "req-1"]]);
  });

  it("still reads a message with text and a value as a message", async () => {
    const { h, actions, messages } = await recording();
    const activity = submitFromForeignCard(h, { action: "approve" });
    await h.deliver({ ...activity, text: "approve it", textFormat: "plain" });
    expect(actions).toEqual([]);
    expect(messages.map((message) => message.text)).toEqual(["approve it"]);
  });
});
