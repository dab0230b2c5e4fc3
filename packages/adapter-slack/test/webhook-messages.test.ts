import { describe, expect, it } from "vitest";
import { harness, recordMessages } from "./webhook-helpers.js";

describe("DM message handling", () => {
  it("top-level DM messages use empty threadTs (matches openDM subscriptions)", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope({
        type: "message",
        user: "U_USER",
        channel: "D_DM_CHAN",
        channel_type: "im",
        text: "hello from DM",
        ts: "1234567890.111111",
      }),
    );
    expect(seen.map((s) => s.threadId)).toEqual(["slack:D_DM_CHAN:"]);
    expect(await h.adapter.openDM("U_DM_CHAN")).toBe("slack:D_DM_CHAN:");
  });

  it("DM thread replies use parent thread_ts", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope({
        type: "message",
        user: "U_USER",
        channel: "D_DM_CHAN",
        channel_type: "im",
        text: "reply in DM thread",
        ts: "1234567890.222222",
        thread_ts: "1234567890.111111",
      }),
    );
    expect(seen.map((s) => s.threadId)).toEqual(["slack:D_DM_CHAN:1234567890.111111"]);
  });

  it("DM messages do NOT have isMention set (routed via onDirectMessage)", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope({
        type: "message",
        user: "U_USER",
        channel: "D_DM_CHAN",
        channel_type: "im",
        text: "hello",
        ts: "1234567890.111111",
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.route).toBe("dm");
    const raw = h.adapter.parseMessage({
      type: "message",
      user: "U_USER",
      channel: "D_DM_CHAN",
      text: "hello",
      ts: "1.2",
    });
    expect(raw.isMention).toBeUndefined();
  });

  it("channel messages do NOT have isMention auto-set", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope({
        type: "message",
        user: "U_USER",
        channel: "C_CHAN",
        text: "just chatting",
        ts: "1234567890.111111",
      }),
    );
    expect(seen).toEqual([
      {
        route: "pattern",
        threadId: "slack:C_CHAN:1234567890.111111",
        text: "just chatting",
        isMention: false,
      },
    ]);
  });
});

describe("message subtype handling", () => {
  it("allows file_share messages through to processMessage", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "file_share",
        user: "U123",
        channel: "C456",
        text: "here is a file",
        ts: "1234567890.123456",
        files: [
          {
            id: "F1",
            name: "a.png",
            mimetype: "image/png",
            url_private: "https://files.slack.com/a.png",
          },
        ],
      }),
    );
    expect(seen.map((s) => s.text)).toEqual(["here is a file"]);
  });

  it("allows thread_broadcast messages through to processMessage", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "thread_broadcast",
        user: "U123",
        channel: "C456",
        text: "broadcast",
        ts: "1234567890.2",
        thread_ts: "1234567890.1",
      }),
    );
    expect(seen.map((s) => s.threadId)).toEqual(["slack:C456:1234567890.1"]);
  });

  it("dispatches message_changed subtypes as message updates", async () => {
    const h = await harness();
    const edits: Array<{ threadId: string; text: string; id: string; edited: boolean }> = [];
    h.chat.onMessageUpdated((thread, message) => {
      edits.push({
        threadId: thread.id,
        text: message.text,
        id: message.id,
        edited: message.metadata.edited,
      });
    });
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        channel: "C456",
        ts: "1234567890.999999",
        message: {
          type: "message",
          user: "U123",
          text: "edited text",
          ts: "1234567890.123456",
          edited: { user: "U123", ts: "1234567890.999999" },
        },
        previous_message: {
          type: "message",
          user: "U123",
          text: "original",
          ts: "1234567890.123456",
        },
      }),
    );
    await h.settle();
    expect(edits).toEqual([
      {
        threadId: "slack:C456:1234567890.123456",
        text: "edited text",
        id: `${h.fake.teamId}:C456:1234567890.123456`,
        edited: true,
      },
    ]);
  });

  it("dispatches message_deleted subtypes as message deletes", async () => {
    const h = await harness();
    const deletes: Array<{ threadId: string; messageId: string }> = [];
    h.chat.onMessageDeleted((event) => {
      deletes.push({ threadId: event.thread.id, messageId: event.messageId });
    });
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_deleted",
        channel: "C456",
        ts: "1234567890.999999",
        deleted_ts: "1234567890.123456",
        previous_message: {
          type: "message",
          user: "U123",
          text: "gone",
          ts: "1234567890.123456",
          thread_ts: "1234567890.000001",
        },
      }),
    );
    await h.settle();
    expect(deletes).toEqual([
      {
        threadId: "slack:C456:1234567890.000001",
        messageId: `${h.fake.teamId}:C456:1234567890.123456`,
      },
    ]);
  });

  it("ignores channel_join subtypes", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    for (const subtype of ["channel_join", "channel_leave", "channel_topic", "channel_purpose"]) {
      const response = await h.deliver(
        h.envelope({
          type: "message",
          subtype,
          user: "U123",
          channel: "C456",
          text: "<@U123> has joined",
          ts: `1234567890.00000${subtype.length}`,
        }),
      );
      expect(response.status).toBe(200);
    }
    await h.settle();
    expect(seen).toEqual([]);
  });
});

describe("event delivery deduplication", () => {
  it("drops a retried delivery of an already-dispatched event", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    const body = h.envelope({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "once",
      ts: "1234567890.123456",
    });
    expect((await h.deliver(body)).status).toBe(200);
    const retry = await h.deliver(body, {
      "x-slack-retry-num": "1",
      "x-slack-retry-reason": "http_timeout",
    });
    expect(retry.status).toBe(200);
    expect(seen).toHaveLength(1);

    const reactions: string[] = [];
    h.chat.onReaction((event) => {
      reactions.push(event.rawEmoji);
    });
    const parent = h.fake.store.add({
      channel: "C456",
      text: "hi",
      user: "U1",
      team: h.fake.teamId,
    });
    const reaction = h.envelope({
      type: "reaction_added",
      user: "U1",
      reaction: "fire",
      item: { type: "message", channel: "C456", ts: parent.ts },
    });
    await h.deliver(reaction);
    await h.settle();
    await h.deliver(reaction, { "x-slack-retry-num": "1" });
    await h.settle();
    expect(reactions).toEqual(["fire"]);
  });

  it("processes a retry when the original delivery was never dispatched", async () => {
    const h = await harness();
    const reactions: string[] = [];
    h.chat.onReaction((event) => {
      reactions.push(event.rawEmoji);
    });
    const parent = h.fake.store.add({
      channel: "C456",
      text: "hi",
      user: "U1",
      team: h.fake.teamId,
    });
    const reaction = h.envelope({
      type: "reaction_added",
      user: "U1",
      reaction: "fire",
      item: { type: "message", channel: "C456", ts: parent.ts },
    });
    // The first delivery was lost before it reached the bot: Slack's retry is the first we see.
    await h.deliver(reaction, { "x-slack-retry-num": "1" });
    await h.settle();
    expect(reactions).toEqual(["fire"]);
  });

  it("runs a message delivered as both message and app_mention once", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    const event = {
      user: "U123",
      channel: "C456",
      text: "<@U0BOT00001> hi",
      ts: "1234567890.123456",
    };
    await h.deliver(h.envelope({ type: "app_mention", ...event }));
    await h.deliver(h.envelope({ type: "message", ...event }));
    expect(seen.map((s) => s.route)).toEqual(["mention"]);
  });

  it("keeps messages with the same ts in two channels apart", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope({
        type: "message",
        user: "U1",
        channel: "C1",
        text: "one",
        ts: "1234567890.123456",
      }),
    );
    await h.deliver(
      h.envelope({
        type: "message",
        user: "U1",
        channel: "C2",
        text: "two",
        ts: "1234567890.123456",
      }),
    );
    expect(seen.map((s) => s.text)).toEqual(["one", "two"]);
  });
});

describe("message subtype handling", () => {
  it("routes the message, its edit, and its delete to one thread id in a flat DM", async () => {
    const h = await harness();
    const threads: string[] = [];
    h.chat.onDirectMessage((thread) => {
      threads.push(`message ${thread.id}`);
    });
    h.chat.onMessageUpdated((thread) => {
      threads.push(`edit ${thread.id}`);
    });
    h.chat.onMessageDeleted((event) => {
      threads.push(`delete ${event.thread.id}`);
    });
    const ts = "1234567890.111111";
    const original = { type: "message", user: "U_USER", text: "hello", ts };
    await h.deliver(h.envelope({ ...original, channel: "D_DM_CHAN", channel_type: "im" }));
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        channel: "D_DM_CHAN",
        channel_type: "im",
        ts: "1234567890.222222",
        message: {
          ...original,
          text: "hello again",
          edited: { user: "U_USER", ts: "1234567890.222222" },
        },
        previous_message: original,
      }),
    );
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_deleted",
        channel: "D_DM_CHAN",
        channel_type: "im",
        ts: "1234567890.333333",
        deleted_ts: ts,
        previous_message: original,
      }),
    );
    await h.settle();
    expect(threads).toEqual([
      "message slack:D_DM_CHAN:",
      "edit slack:D_DM_CHAN:",
      "delete slack:D_DM_CHAN:",
    ]);
  });

  it("ignores a message_changed where nothing actually changed", async () => {
    const h = await harness();
    const edits: string[] = [];
    h.chat.onMessageUpdated((_thread, message) => {
      edits.push(message.text);
    });
    const message = { type: "message", user: "U123", text: "same", ts: "1234567890.123456" };
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        channel: "C456",
        ts: "1234567890.9",
        message,
        previous_message: message,
      }),
    );
    await h.settle();
    expect(edits).toEqual([]);
  });

  it("ignores message_changed tombstone subtypes", async () => {
    const h = await harness();
    const edits: string[] = [];
    h.chat.onMessageUpdated((_thread, message) => {
      edits.push(message.text);
    });
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        channel: "C456",
        ts: "1234567890.9",
        message: {
          type: "message",
          subtype: "tombstone",
          text: "This message was deleted.",
          ts: "1234567890.123456",
        },
        previous_message: {
          type: "message",
          user: "U123",
          text: "parent",
          ts: "1234567890.123456",
        },
      }),
    );
    await h.settle();
    expect(edits).toEqual([]);
  });
});

describe("isMessageFromSelf", () => {
  it("matches by bot user ID", async () => {
    const h = await harness();
    const message = h.adapter.parseMessage({
      type: "message",
      user: h.fake.botUserId,
      channel: "C1",
      text: "mine",
      ts: "1.1",
    });
    expect(message.author.isMe).toBe(true);
  });

  it("matches by bot ID", async () => {
    const h = await harness();
    const message = h.adapter.parseMessage({
      type: "message",
      subtype: "bot_message",
      bot_id: h.fake.botId,
      channel: "C1",
      text: "mine",
      ts: "1.1",
    });
    expect(message.author.isMe).toBe(true);
  });

  it("returns false for non-bot messages", async () => {
    const h = await harness();
    const message = h.adapter.parseMessage({
      type: "message",
      user: "U_SOMEONE",
      channel: "C1",
      text: "theirs",
      ts: "1.1",
    });
    expect(message.author.isMe).toBe(false);
    expect(message.author.isBot).toBe(false);
  });
});

describe("fetchChannelMessages", () => {
  async function seeded() {
    const h = await harness();
    for (const n of [1, 2, 3])
      h.fake.store.add({ channel: "C9", text: `m${n}`, user: "U1", team: h.fake.teamId });
    return h;
  }

  it("fetches channel messages backward (default)", async () => {
    const h = await seeded();
    const page = await h.adapter.fetchChannelMessages("slack:C9", { limit: 2 });
    expect(page.messages.map((m) => m.text)).toEqual(["m3", "m2"]);
    expect(h.fake.callsOf("conversations.history")[0]?.args).toMatchObject({
      channel: "C9",
      limit: "2",
    });
  });

  it("fetches channel messages forward", async () => {
    const h = await seeded();
    const page = await h.adapter.fetchChannelMessages("slack:C9", {
      limit: 2,
      direction: "forward",
    });
    expect(page.messages.map((m) => m.text)).toEqual(["m1", "m2"]);
    const next = await h.adapter.fetchChannelMessages("slack:C9", {
      limit: 2,
      direction: "forward",
      cursor: page.nextCursor,
    });
    expect(next.messages.map((m) => m.text)).toEqual(["m3"]);
  });

  it("throws on invalid channel ID", async () => {
    const h = await harness();
    const { ValidationError } = await import("@baton/core");
    await expect(h.adapter.fetchChannelMessages("teams:C9")).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(h.adapter.fetchChannelMessages("slack:")).rejects.toBeInstanceOf(ValidationError);
  });
});
