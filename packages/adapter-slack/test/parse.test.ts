import { describe, expect, it } from "vitest";
import { createSlackAdapter } from "../src/index.js";

/** Upstream's parse tests use an adapter that was never initialized: no team is known yet. */
function adapter(botUserId?: string) {
  return createSlackAdapter({
    botToken: "xoxb-test-token",
    signingSecret: "test-secret",
    ...(botUserId === undefined ? {} : { botUserId }),
  });
}

describe("parseMessage", () => {
  const slack = adapter("U_BOT");

  it("parses a basic message event", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Hello world",
      ts: "1234567890.123456",
    });
    // Baton: the id carries the team (unknown before initialize: "_") and the channel (ADR 0022).
    expect(message.id).toBe("_:C456:1234567890.123456");
    expect(message.text).toBe("Hello world");
    expect(message.author.userId).toBe("U123");
    expect(message.author.isBot).toBe(false);
    expect(message.author.isMe).toBe(false);
  });

  it("parses a bot message", () => {
    const message = slack.parseMessage({
      type: "message",
      bot_id: "B123",
      channel: "C456",
      text: "Bot message",
      ts: "1234567890.123456",
      subtype: "bot_message",
    });
    expect(message.author.userId).toBe("B123");
    expect(message.author.isBot).toBe(true);
  });

  it("detects messages from self", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U_BOT",
      channel: "C456",
      text: "Self message",
      ts: "1234567890.123456",
    });
    expect(message.author.isMe).toBe(true);
  });

  it("parses message with thread_ts", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Thread reply",
      ts: "1234567891.123456",
      thread_ts: "1234567890.123456",
    });
    expect(message.threadId).toBe("slack:C456:1234567890.123456");
  });

  it("parses edited message", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Edited message",
      ts: "1234567890.123456",
      edited: { ts: "1234567891.000000" },
    });
    expect(message.metadata.edited).toBe(true);
    expect(message.metadata.editedAt).toBeDefined();
  });

  it("parses message with files", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Message with file",
      ts: "1234567890.123456",
      files: [
        {
          id: "F123",
          mimetype: "image/png",
          url_private: "https://files.slack.com/file.png",
          name: "image.png",
          size: 12345,
          original_w: 800,
          original_h: 600,
        },
      ],
    });
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0]?.type).toBe("image");
    expect(message.attachments[0]?.name).toBe("image.png");
    expect(message.attachments[0]?.mimeType).toBe("image/png");
    expect(message.attachments[0]?.width).toBe(800);
    expect(message.attachments[0]?.height).toBe(600);
  });

  it("handles different file types", () => {
    const of = (mimetype: string) =>
      slack.parseMessage({
        type: "message",
        user: "U123",
        channel: "C456",
        text: "",
        ts: "1234567890.123456",
        files: [{ id: "F123", mimetype, url_private: "https://example.com" }],
      }).attachments[0]?.type;
    expect(of("image/jpeg")).toBe("image");
    expect(of("video/mp4")).toBe("video");
    expect(of("audio/mpeg")).toBe("audio");
    expect(of("application/pdf")).toBe("file");
  });
});

describe("renderFormatted", () => {
  it("renders AST to Slack mrkdwn, not markdown (Baton: no markdown_text)", () => {
    const ast = {
      type: "root" as const,
      children: [
        {
          type: "paragraph" as const,
          children: [
            { type: "strong" as const, children: [{ type: "text" as const, value: "bold" }] },
          ],
        },
      ],
    };
    expect(adapter().renderFormatted(ast)).toBe("*bold*");
  });
});

describe("edge cases", () => {
  const slack = adapter();

  it("handles missing text in event", () => {
    expect(
      slack.parseMessage({
        type: "message",
        user: "U123",
        channel: "C456",
        ts: "1234567890.123456",
      }).text,
    ).toBe("");
  });

  it("handles missing user in event", () => {
    const message = slack.parseMessage({
      type: "message",
      channel: "C456",
      text: "Anonymous message",
      ts: "1234567890.123456",
    });
    expect(message.author.userId).toBe("unknown");
  });

  it("handles missing ts in event", () => {
    expect(
      slack.parseMessage({ type: "message", user: "U123", channel: "C456", text: "No timestamp" })
        .id,
    ).toBe("");
  });

  it("parses username from event when available", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      username: "testuser",
      channel: "C456",
      text: "Hello",
      ts: "1234567890.123456",
    });
    expect(message.author.userName).toBe("testuser");
  });
});

describe("date parsing", () => {
  const slack = adapter();

  it("parses Slack timestamp to Date", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Hello",
      ts: "1609459200.000000",
    });
    expect(message.metadata.dateSent).toEqual(new Date(1609459200000));
  });

  it("handles edited timestamp", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Hello",
      ts: "1609459200.000000",
      edited: { ts: "1609459260.000000" },
    });
    expect(message.metadata.editedAt).toEqual(new Date(1609459260000));
  });
});

describe("formatted text extraction", () => {
  const slack = adapter();

  it("extracts plain text from mrkdwn", () => {
    expect(
      slack.parseMessage({
        type: "message",
        user: "U123",
        channel: "C456",
        text: "*bold* and _italic_",
        ts: "1234567890.123456",
      }).text,
    ).toBe("bold and italic");
  });

  it("extracts text from links", () => {
    expect(
      slack.parseMessage({
        type: "message",
        user: "U123",
        channel: "C456",
        text: "Check <https://example.com|this link>",
        ts: "1234567890.123456",
      }).text,
    ).toContain("this link");
  });

  it("extracts text from user mentions", () => {
    expect(
      slack.parseMessage({
        type: "message",
        user: "U123",
        channel: "C456",
        text: "Hey <@U456|john>!",
        ts: "1234567890.123456",
      }).text,
    ).toContain("@john");
  });
});
