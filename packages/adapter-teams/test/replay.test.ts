import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ActionEvent, Message, ReactionEvent } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { decodeTeamsThreadId } from "../src/index.js";
import { trackHarnesses } from "./teams-harness.js";

/**
 * Recorded Bot Framework activities (anonymized, as published with Vercel's Chat SDK integration
 * tests; copies of the shared fixtures/replay teams files, kept here so CI has them).
 */
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

interface Recording {
  readonly appId: string;
  readonly botId: string;
  readonly botName: string;
  readonly serviceUrl: string;
  readonly [scenario: string]: unknown;
}

function recording(file: string): Recording {
  return JSON.parse(readFileSync(`${FIXTURES}/${file}`, "utf8")) as Recording;
}

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

/** A harness whose fake signs tokens for the recording's app id (the tokens' audience). */
function harnessFor(recorded: Recording) {
  return harnesses.open({ userName: recorded.botName }, {}, { appId: recorded.appId });
}

describe("replays of recorded Teams activities, validly signed", () => {
  it("routes the recorded mention and follow-up to one reply-chain thread and replies there", async () => {
    const recorded = recording("teams.json");
    const h = await harnessFor(recorded);
    const mentions: Message[] = [];
    const followUps: Message[] = [];
    h.chat.onNewMention(async (thread, message) => {
      mentions.push(message);
      await thread.subscribe();
      await thread.post("Hello from Baton");
    });
    h.chat.onSubscribedMessage(async (_thread, message) => {
      followUps.push(message);
    });
    const first = await h.deliver(recorded.mention as Record<string, unknown>);
    const second = await h.deliver(recorded.followUp as Record<string, unknown>);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(mentions.map((message) => [message.text, message.isMention])).toEqual([["Hey", true]]);
    expect(followUps.map((message) => message.text)).toEqual(["Hi"]);
    expect(followUps[0]?.threadId).toBe(mentions[0]?.threadId);
    const { conversationId, serviceUrl } = decodeTeamsThreadId(mentions[0]?.threadId ?? "");
    expect(conversationId).toBe(
      "19:d441d38c655c47a085215b2726e76927@thread.tacv2;messageid=1767224924615",
    );
    expect(serviceUrl).toBe(recorded.serviceUrl);
    expect(mentions[0]?.author).toMatchObject({ fullName: "Test User", isMe: false });
    const [reply] = h.fake.callsTo("activities.create");
    expect(reply?.conversationId).toBe(conversationId);
    expect(reply?.body).toMatchObject({ text: "Hello from Baton" });
  });

  it("routes the recorded card action and reaction, and keeps the service URL for the channel", async () => {
    const recorded = recording("actions-reactions-teams.json");
    const h = await harnessFor(recorded);
    const mentions: string[] = [];
    const actions: ActionEvent[] = [];
    const reactions: ReactionEvent[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      mentions.push(message.text);
    });
    h.chat.onAction(async (event) => {
      actions.push(event);
    });
    h.chat.onReaction(async (event) => {
      reactions.push(event);
    });
    for (const scenario of ["mention", "action", "reaction"]) {
      const response = await h.deliver(recorded[scenario] as Record<string, unknown>);
      expect(response.status, scenario).toBe(200);
    }
    expect(mentions).toEqual(["Test"]);
    expect(actions.map((event) => [event.actionId, event.user.fullName])).toEqual([
      ["info", "Test User"],
    ]);
    expect(reactions.map((event) => [String(event.emoji), event.added, event.messageId])).toEqual([
      ["{{emoji:thumbs_up}}", true, "1767326111492"],
    ]);
    const chain = "19:d441d38c655c47a085215b2726e76927@thread.tacv2;messageid=1767326091220";
    expect(decodeTeamsThreadId(actions[0]?.threadId ?? "").conversationId).toBe(chain);
    expect(
      await h.state.get("teams:conversation:19:d441d38c655c47a085215b2726e76927@thread.tacv2"),
    ).toMatchObject({
      serviceUrl: recorded.serviceUrl,
      tenantId: "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
    });
  });

  it("refuses each recording when its token was signed for another app", async () => {
    const recorded = recording("teams.json");
    const h = await harnessFor(recorded);
    const seen: string[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      seen.push(message.text);
    });
    const response = await h.deliver(recorded.mention as Record<string, unknown>, {
      audience: "00000000-0000-0000-0000-000000000000",
    });
    expect(response.status).toBe(401);
    expect(seen).toEqual([]);
  });
});
