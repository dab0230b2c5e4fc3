import type { ActionEvent, Message, ReactionEvent } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  classifyTeamsActivity,
  decodeTeamsThreadId,
  encodeTeamsThreadId,
  parseTeamsActivity,
  stripBotMention,
  TeamsActivityParseError,
} from "../src/index.js";
import {
  CHANNEL,
  GROUP_CHAT,
  PERSONAL_CHAT,
  TENANT,
  trackHarnesses,
  USER,
} from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

describe("inbound activities through the real entry point", () => {
  it("dispatches a channel mention in its reply chain, the bot's mention removed", async () => {
    const h = await harnesses.open();
    const seen: Message[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      seen.push(message);
    });
    const response = await h.deliver(
      h.message(`${h.mention.text} hello there`, { entities: [h.mention.entity] }),
    );
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
    const [message] = seen;
    expect(message?.text).toBe("hello there");
    expect(message?.isMention).toBe(true);
    expect(message?.author).toMatchObject({ userId: USER.id, fullName: USER.name, isMe: false });
    expect(decodeTeamsThreadId(message?.threadId ?? "")).toEqual({
      conversationId: `${CHANNEL};messageid=1767224924000`,
      serviceUrl: h.fake.serviceUrl,
    });
  });

  it("routes a personal chat as a DM and a group chat as a group thread", async () => {
    const h = await harnesses.open();
    const dms: string[] = [];
    const mentions: string[] = [];
    h.chat.onDirectMessage(async (_thread, message) => {
      dms.push(message.text);
    });
    h.chat.onNewMention(async (_thread, message) => {
      mentions.push(message.text);
    });
    await h.deliver(
      h.message("hi in private", {
        conversation: { id: PERSONAL_CHAT, conversationType: "personal", tenantId: TENANT },
      }),
    );
    await h.deliver(
      h.message(`${h.mention.text} hi group`, {
        entities: [h.mention.entity],
        conversation: {
          id: GROUP_CHAT,
          conversationType: "groupChat",
          isGroup: true,
          tenantId: TENANT,
        },
      }),
    );
    expect(dms).toEqual(["hi in private"]);
    expect(mentions).toEqual(["hi group"]);
    const dmThread = encodeTeamsThreadId({
      conversationId: PERSONAL_CHAT,
      serviceUrl: h.fake.serviceUrl,
    });
    expect(h.adapter.isDM(dmThread)).toBe(true);
  });

  it("keeps other users' <at> mentions as @names and never dispatches the bot's own message", async () => {
    const h = await harnesses.open();
    const seen: Message[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      seen.push(message);
    });
    h.chat.onSubscribedMessage(async (_thread, message) => {
      seen.push(message);
    });
    await h.deliver(
      h.message(`${h.mention.text} ask <at>Ada</at>`, {
        entities: [
          h.mention.entity,
          { type: "mention", text: "<at>Ada</at>", mentioned: { id: "29:ada", name: "Ada" } },
        ],
      }),
    );
    await h.deliver(h.message("echo", { from: h.bot }));
    expect(seen.map((message) => message.text)).toEqual(["ask @Ada"]);
  });

  it("runs Action.Submit and Action.Execute as actions, the invoke answered at once", async () => {
    const h = await harnesses.open();
    const actions: ActionEvent[] = [];
    h.chat.onAction(async (event) => {
      actions.push(event);
    });
    const submit = await h.deliver(
      h.message("", { value: { actionId: "approve", value: "req-1" }, replyToId: "card-1" }),
    );
    const execute = await h.deliver(
      h.message("", {
        type: "invoke",
        name: "adaptiveCard/action",
        value: { action: { type: "Action.Execute", verb: "reject", data: { value: "req-2" } } },
        replyToId: "card-1",
      }),
    );
    expect(submit.status).toBe(200);
    expect(execute.status).toBe(200);
    expect(await execute.json()).toMatchObject({ statusCode: 200 });
    expect(actions.map((event) => [event.actionId, event.value, event.messageId])).toEqual([
      ["approve", "req-1", "card-1"],
      ["reject", "req-2", "card-1"],
    ]);
    expect(actions[0]?.user.userId).toBe(USER.id);
  });

  it("turns messageReaction, messageUpdate and messageDelete into events", async () => {
    const h = await harnesses.open();
    const reactions: ReactionEvent[] = [];
    const edits: string[] = [];
    const deletes: string[] = [];
    h.chat.onReaction(async (event) => {
      reactions.push(event);
    });
    h.chat.onMessageUpdated(async (_thread, message) => {
      edits.push(message.text);
    });
    h.chat.onMessageDeleted(async (event) => {
      deletes.push(event.messageId);
    });
    await h.deliver(
      h.message("", {
        type: "messageReaction",
        replyToId: "m-1",
        reactionsAdded: [{ type: "like" }],
        reactionsRemoved: [{ type: "heart" }],
      }),
    );
    await h.deliver(h.message("fixed text", { type: "messageUpdate", id: "m-2" }));
    await h.deliver(
      h.message("", {
        type: "messageDelete",
        id: "m-3",
        channelData: { eventType: "softDeleteMessage" },
      }),
    );
    expect(
      reactions.map((event) => [String(event.emoji), event.rawEmoji, event.added, event.messageId]),
    ).toEqual([
      ["{{emoji:thumbs_up}}", "like", true, "m-1"],
      ["{{emoji:heart}}", "heart", false, "m-1"],
    ]);
    expect(edits).toEqual(["fixed text"]);
    expect(deletes).toEqual(["m-3"]);
  });

  it("keeps each conversation's service URL in the State and tells lifecycle handlers", async () => {
    const h = await harnesses.open();
    const updates: boolean[] = [];
    const installs: (string | undefined)[] = [];
    h.adapter.onConversationUpdate((event) => {
      updates.push(event.botAdded);
    });
    h.adapter.onInstallationUpdate((event) => {
      installs.push(event.action);
    });
    await h.deliver(h.message("", { type: "conversationUpdate", membersAdded: [h.bot] }));
    await h.deliver(h.message("", { type: "installationUpdate", action: "add" }));
    expect(updates).toEqual([true]);
    expect(installs).toEqual(["add"]);
    expect(await h.state.get(`teams:conversation:${CHANNEL}`)).toMatchObject({
      serviceUrl: h.fake.serviceUrl,
      tenantId: TENANT,
    });
  });

  it("should return 400 for invalid JSON body", async () => {
    const h = await harnesses.open();
    const response = await h.deliver("{not json");
    expect(response.status).toBe(400);
  });
});

const baseActivity = {
  channelData: {
    channel: { id: "channel-id" },
    team: { id: "team-id" },
    tenant: { id: "tenant-id" },
  },
  conversation: { id: "conversation-id" },
  from: { aadObjectId: "aad-id", id: "user-id", name: "Ada" },
  id: "activity-id",
  serviceUrl: "https://smba.example/",
};

// Ported from upstream packages/adapter-teams/src/webhook/index.test.ts (titles verbatim), on
// Baton's parser (`parseTeamsActivity` reads, `classifyTeamsActivity` routes).
describe("Teams webhook primitives", () => {
  const classify = (body: unknown) => classifyTeamsActivity(parseTeamsActivity(body));

  it("classifies reaction and lifecycle activities", () => {
    const reaction = parseTeamsActivity({
      ...baseActivity,
      action: "add",
      replyToId: "message-id",
      type: "messageReaction",
    });
    expect(classifyTeamsActivity(reaction)).toEqual({ kind: "reaction" });
    expect(reaction).toMatchObject({ action: "add", replyToId: "message-id" });
    expect(classify({ ...baseActivity, type: "conversationUpdate" })).toEqual({
      kind: "conversationUpdate",
    });
    const install = parseTeamsActivity({
      ...baseActivity,
      action: "add",
      type: "installationUpdate",
    });
    expect(classifyTeamsActivity(install)).toEqual({ kind: "installationUpdate" });
    expect(install.action).toBe("add");
  });

  it("classifies card actions and dialogs", () => {
    expect(
      classify({
        ...baseActivity,
        name: "adaptiveCard/action",
        type: "invoke",
        value: { actionId: "approve" },
      }),
    ).toMatchObject({ actionId: "approve", kind: "action" });
    expect(classify({ ...baseActivity, name: "task/fetch", type: "invoke" })).toMatchObject({
      kind: "dialogOpen",
    });
    expect(classify({ ...baseActivity, name: "task/submit", type: "invoke" })).toMatchObject({
      kind: "dialogSubmit",
    });
  });

  it("throws parse errors for invalid JSON", () => {
    expect(() => parseTeamsActivity("{")).toThrow(TeamsActivityParseError);
  });

  it("rejects non-object JSON and non-string bodies", () => {
    expect(() => parseTeamsActivity(null)).toThrow(TeamsActivityParseError);
    expect(() => parseTeamsActivity(42)).toThrow(TeamsActivityParseError);
  });

  it("classifies Action.Submit messages and msteams payloads as card actions", () => {
    expect(
      classify({ ...baseActivity, type: "message", value: { actionId: "approve" } }),
    ).toMatchObject({
      actionId: "approve",
      kind: "action",
    });
    expect(
      classify({ ...baseActivity, type: "message", value: { msteams: { type: "messageBack" } } }),
    ).toMatchObject({ actionId: undefined, kind: "action" });
    expect(
      classify({
        ...baseActivity,
        name: "adaptiveCard/action",
        type: "invoke",
        value: { actionId: "approve" },
      }),
    ).toMatchObject({ actionId: "approve", kind: "action", invoke: true });
  });

  it("marks unknown and unhandled activity types as unsupported", () => {
    expect(classify({ ...baseActivity, type: "typing" })).toMatchObject({
      kind: "unsupported",
      reason: "Unsupported Teams activity type: typing",
    });
    expect(classify({ ...baseActivity, name: "signin/verifyState", type: "invoke" })).toMatchObject(
      {
        kind: "unsupported",
      },
    );
    expect(classify({ ...baseActivity })).toMatchObject({
      reason: "Unsupported Teams activity type: unknown",
    });
  });

  it("extracts a user only when an id is present", () => {
    expect(parseTeamsActivity({ ...baseActivity, from: { name: "Ada" } }).from).toBeUndefined();
    expect(parseTeamsActivity({ ...baseActivity, from: { id: "user-id" } }).from).toEqual({
      id: "user-id",
    });
  });

  it("normalizes attachments and skips non-object entries", () => {
    const attachment = {
      content: { foo: 1 },
      contentType: "application/json",
      contentUrl: "https://example.com/file",
      name: "file",
    };
    expect(
      parseTeamsActivity({
        ...baseActivity,
        type: "message",
        attachments: [null, "bad", attachment],
      }).attachments,
    ).toEqual([attachment]);
  });

  it("detects mentions by id suffix and ignores them without a botAppId", () => {
    const activity = parseTeamsActivity({
      ...baseActivity,
      type: "message",
      entities: [{ mentioned: { id: "28:bot-id" }, type: "mention" }],
    });
    expect(stripBotMention(activity, "bot-id").mentioned).toBe(true);
    expect(stripBotMention(activity, "").mentioned).toBe(false);
  });
});
