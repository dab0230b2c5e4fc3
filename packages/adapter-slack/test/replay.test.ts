import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { emoji } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

/**
 * Recordings from real Slack workspaces, in `shared/fixtures/replay/` beside the repository (see
 * its README.md), as CI lays it out.
 */
const FIXTURES = fileURLToPath(new URL("../../../../shared/fixtures/replay", import.meta.url));
function fixture<T = Record<string, Record<string, unknown>>>(path: string): T {
  return JSON.parse(readFileSync(`${FIXTURES}/${path}`, "utf8")) as T;
}

type Recording = Record<string, Record<string, unknown>> & { botUserId: string; botName: string };

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** A harness whose fake plays the recorded workspace: its bot user and team. */
async function replaying(recording: Recording, teamId = "T00FAKE00AA") {
  const h = await createSlackHarness(
    {},
    {},
    { botUserId: recording.botUserId, botId: "B00FAKEBOT01", teamId },
  );
  harnesses.push(h);
  h.fake.reset();
  return h;
}

function interaction(h: SlackHarness, payload: unknown) {
  return h.deliverForm({ payload: JSON.stringify(payload) });
}

describe("replays of recorded Slack traffic through the signed webhook", () => {
  it("slack.json: a channel mention starts a thread the bot replies in, and the follow-up reaches it", async () => {
    const recording = fixture<Recording>("slack.json");
    const h = await replaying(recording);
    const seen: string[] = [];
    h.chat.onNewMention(async (thread, message) => {
      seen.push(`mention ${thread.id} ${message.text}`);
      await thread.subscribe();
      await thread.post("Hello! I'm listening.");
    });
    h.chat.onSubscribedMessage(async (thread, message) => {
      seen.push(`follow-up ${thread.id} ${message.text}`);
      await thread.post({ markdown: "You said: **Hi**" });
    });

    expect((await h.deliver(recording.mention)).status).toBe(200);
    expect((await h.deliver(recording.followUp)).status).toBe(200);

    const thread = "slack:C00FAKECHAN1:1767224888.280449";
    expect(seen).toEqual([`mention ${thread} @U00FAKEBOT01 Hey`, `follow-up ${thread} Hi`]);
    expect(h.fake.callsOf("chat.postMessage").map((c) => c.args)).toMatchObject([
      { channel: "C00FAKECHAN1", thread_ts: "1767224888.280449", text: "Hello! I'm listening." },
      { channel: "C00FAKECHAN1", thread_ts: "1767224888.280449", text: "You said: *Hi*" },
    ]);
  });

  it("dm/slack.json: an app_mention, a request for a DM in its thread, then the DM itself", async () => {
    const recording = fixture<Recording & { dmChannelId: string }>("dm/slack.json");
    const h = await replaying(recording);
    const seen: string[] = [];
    h.chat.onNewMention(async (thread) => {
      seen.push(`mention ${thread.id}`);
      await thread.subscribe();
    });
    h.chat.onSubscribedMessage(async (_thread, message) => {
      seen.push(`request ${message.text}`);
      const dm = await h.chat.openDM(message.author.userId);
      await dm.post("Here I am, in private.");
    });
    h.chat.onDirectMessage((thread, message) => {
      seen.push(`dm ${thread.id} ${message.text}`);
    });

    await h.deliver(recording.mention);
    await h.deliver(recording.dmRequest);
    await h.deliver(recording.dmMessage);

    expect(seen).toEqual([
      "mention slack:C00FAKECHAN1:1767376988.871629",
      "request DM me",
      `dm slack:${recording.dmChannelId}: Hey!`,
    ]);
    expect(h.fake.callsOf("conversations.open")[0]?.args.users).toBe("U00FAKEUSER1");
    const [post] = h.fake.callsOf("chat.postMessage");
    expect(post?.args).toMatchObject({ channel: "D00FAKEUSER1", text: "Here I am, in private." });
    expect(post?.args.thread_ts).toBeUndefined();
  });

  it("actions-reactions/slack.json: a button, a reaction, a static select and radio buttons", async () => {
    const recording = fixture<Recording>("actions-reactions/slack.json");
    const h = await replaying(recording);
    // The workspace's messages the events refer to: the mention and the bot's card reply.
    h.fake.store.add({
      channel: "C00FAKECHAN1",
      ts: "1767326125.870439",
      text: "Test",
      user: "U00FAKEUSER1",
      team: "T00FAKE00AA",
    });
    h.fake.store.add({
      channel: "C00FAKECHAN1",
      ts: "1767326126.896109",
      thread_ts: "1767326125.870439",
      text: "card",
      user: recording.botUserId,
      team: "T00FAKE00AA",
    });
    const seen: string[] = [];
    h.chat.onNewMention((thread) => {
      seen.push(`mention ${thread.id}`);
    });
    h.chat.onAction((event) => {
      seen.push(
        `action ${event.actionId}=${event.value ?? ""} ${event.thread?.id} by ${event.user.userName}`,
      );
    });
    h.chat.onReaction(emoji.thumbs_up, (event) => {
      seen.push(`reaction ${event.rawEmoji} ${event.thread?.id} ${event.messageId}`);
    });

    // Each delivery is settled before the next: reactions look their thread up after the answer.
    await h.deliver(recording.mention);
    await interaction(h, recording.action);
    await h.settle();
    await h.deliver(recording.reaction);
    await h.settle();
    await interaction(h, recording.staticSelectAction);
    await h.settle();
    await interaction(h, recording.radioButtonsAction);
    await h.settle();

    const thread = "slack:C00FAKECHAN1:1767326125.870439";
    expect(seen).toEqual([
      `mention ${thread}`,
      `action info= ${thread} by testuser`,
      `reaction +1 ${thread} T00FAKE00AA:C00FAKECHAN1:1767326126.896109`,
      `action quick_action=greet ${thread} by testuser`,
      `action plan_selected=all_text ${thread} by testuser`,
    ]);
  });

  it("channel/slack.json: a button with enterprise fields posts to the channel's top level", async () => {
    const recording = fixture<Recording>("channel/slack.json");
    const h = await replaying(recording);
    h.chat.onAction("channel-post", async (event) => {
      await event.thread?.channel.post("Posted to the channel");
    });
    await h.deliver(recording.mention);
    expect((await interaction(h, recording.channel_post_action)).status).toBe(200);
    await h.settle();
    const [post] = h.fake.callsOf("chat.postMessage");
    expect(post?.args).toMatchObject({ channel: "C00FAKECHAN1", text: "Posted to the channel" });
    expect(post?.args.thread_ts).toBeUndefined();
  });

  it("streaming/slack.json: a natively streamed answer, a file, another bot's card and its button", async () => {
    const recording = fixture<Recording>("streaming/slack.json");
    const h = await replaying(recording);
    const seen: string[] = [];
    h.chat.onNewMention(async (thread, message) => {
      seen.push(
        `mention ${thread.id} files=${message.attachments.map((a) => `${a.type}:${a.name}`).join(",")}`,
      );
      async function* answer() {
        yield "Love is ";
        yield "a **feeling**.";
      }
      await thread.post(answer());
    });
    h.chat.onNewMessage(/.*/, (thread, message) => {
      seen.push(`message ${thread.id} from ${message.author.userId} bot=${message.author.isBot}`);
    });
    h.chat.onAction((event) => {
      seen.push(`action ${event.actionId}=${event.value} ${event.thread?.id}`);
    });

    await h.deliver(recording.aiMention);
    await h.deliver(recording.aiMentionWithFile);
    await h.deliver(recording.promptMessage);
    await interaction(h, recording.buttonAction);
    await h.settle();

    expect(seen).toEqual([
      "mention slack:C00FAKECHAN1:1767406613.568609 files=",
      "mention slack:C00FAKECHAN3:1770241970.822989 files=image:image.png",
      "message slack:C08REALCHAN1:1775407823.782829 from U08REALBOT1 bot=true",
      "action option-select:option-a=option-a slack:C08REALCHAN1:1775407823.782829",
    ]);
    // Both mentions start threads, so each answer is streamed natively in its thread.
    expect(h.fake.callsOf("chat.startStream").map((c) => c.args.thread_ts)).toEqual([
      "1767406613.568609",
      "1770241970.822989",
    ]);
    const first = h.fake.store.messages.find((m) => m.channel === "C00FAKECHAN1");
    expect(first?.text).toBe("Love is a **feeling**.");
  });
});
