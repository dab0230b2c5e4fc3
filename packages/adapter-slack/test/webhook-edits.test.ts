/**
 * Deliveries of Slack's own messages and of hidden edits, through the webhook to the handlers:
 * system notifications keep `isSystem`, hidden `message_changed` events are edits when the text
 * changed and nothing when only Slack's thread metadata did. Ports upstream's cases.
 */
import type { Author } from "@baton/core";
import { describe, expect, it } from "vitest";
import { harness, recordMessages } from "./webhook-helpers.js";

describe("DM message handling", () => {
  it("USLACK system notifications in DMs are dispatched with isSystem set", async () => {
    const h = await harness();
    const authors: Author[] = [];
    h.chat.onDirectMessage((_thread, message) => {
      authors.push(message.author);
    });
    await h.deliver(
      h.envelope({
        type: "message",
        user: "USLACK",
        channel: "D_DM_CHAN",
        channel_type: "im",
        text: "<@U_USER> archived the channel <#C_CHANNEL>",
        ts: "1234567890.555555",
      }),
    );
    expect(authors).toHaveLength(1);
    expect(authors[0]?.userId).toBe("USLACK");
    expect(authors[0]?.isBot).toBe(false);
    expect(authors[0]?.isSystem).toBe(true);
    expect(authors[0]?.isMe).toBe(false);
  });
});

describe("message subtype handling", () => {
  it("dispatches hidden message_changed edits as message updates", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    const edits: Array<{ threadId: string; text: string }> = [];
    h.chat.onMessageUpdated((thread, message) => {
      edits.push({ threadId: thread.id, text: message.text });
    });
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        hidden: true,
        channel: "D_DM",
        channel_type: "im",
        ts: "1779425554.000100",
        event_ts: "1779425554.000100",
        message: {
          type: "message",
          user: "U_USER",
          text: "What do you see in this attachment? Test",
          ts: "1779271807.493869",
          thread_ts: "1779271794.544339",
          edited: { user: "U_USER", ts: "1779425554.000000" },
        },
        previous_message: {
          type: "message",
          user: "U_USER",
          text: "What do you see in this attachment?",
          ts: "1779271807.493869",
          thread_ts: "1779271794.544339",
        },
      }),
    );
    await h.settle();
    expect(seen).toEqual([]);
    expect(edits).toEqual([
      {
        threadId: "slack:D_DM:1779271794.544339",
        text: "What do you see in this attachment? Test",
      },
    ]);
  });

  it("ignores hidden message_changed thread metadata updates after deletes", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    const edits: string[] = [];
    h.chat.onMessageUpdated((_thread, message) => {
      edits.push(message.text);
    });
    const snapshot = {
      type: "message",
      subtype: "assistant_app_thread",
      user: "U_BOT",
      text: "New Assistant Thread",
      ts: "1778127887.294739",
      thread_ts: "1778127887.294739",
      edited: { user: "U_BOT", ts: "1778128187.000000" },
      reply_count: 41,
      latest_reply: "1779271265.010909",
    };
    const response = await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        hidden: true,
        channel: "D_DM",
        channel_type: "im",
        ts: "1779425682.000300",
        event_ts: "1779425682.000300",
        message: snapshot,
        previous_message: snapshot,
      }),
    );
    await h.settle();
    expect(response.status).toBe(200);
    expect(seen).toEqual([]);
    expect(edits).toEqual([]);
  });

  it("forwards the pre-edit message so handlers can diff the change", async () => {
    const h = await harness();
    const diffs: unknown[] = [];
    h.chat.onMessageUpdated((_thread, message, context) => {
      const previous = context.previousMessage;
      diffs.push({
        before: previous?.text,
        beforeEdited: previous?.metadata.edited,
        beforeThreadId: previous?.threadId,
        after: message.text,
        afterEdited: message.metadata.edited,
      });
    });
    const before = {
      type: "message",
      user: "U_USER",
      username: "user",
      channel: "C_CHAN",
      text: "before",
      ts: "1234567890.111111",
    };
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        channel: "C_CHAN",
        ts: "1234567891.111111",
        message: { ...before, text: "after", edited: { ts: "1234567891.111111" } },
        previous_message: before,
      }),
    );
    await h.settle();
    expect(diffs).toEqual([
      {
        before: "before",
        beforeEdited: false,
        beforeThreadId: "slack:C_CHAN:1234567890.111111",
        after: "after",
        afterEdited: true,
      },
    ]);
  });

  it("leaves previousMessage undefined when Slack omits it", async () => {
    const h = await harness();
    const previous: unknown[] = [];
    h.chat.onMessageUpdated((_thread, _message, context) => {
      previous.push(context.previousMessage);
    });
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        channel: "C_CHAN",
        ts: "1234567891.111111",
        message: {
          type: "message",
          user: "U_USER",
          channel: "C_CHAN",
          text: "after",
          ts: "1234567890.111111",
          edited: { ts: "1234567891.111111" },
        },
      }),
    );
    await h.settle();
    expect(previous).toEqual([undefined]);
  });
});
