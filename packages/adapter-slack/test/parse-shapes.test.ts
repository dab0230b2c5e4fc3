/**
 * Message shapes beyond plain text: Slack's tables (`table` / `data_table` blocks, tables pasted
 * as attachments) read into the message's text and tree, and Slack's own system-authored
 * messages. Ports upstream's parseMessage cases with their inputs.
 */
import { type Message, toPlainText } from "@baton/core";
import type { Nodes, Root, Table } from "mdast";
import { describe, expect, it } from "vitest";
import { createSlackAdapter } from "../src/index.js";
import { harness } from "./webhook-helpers.js";

const slack = createSlackAdapter({
  botToken: "xoxb-test-token",
  signingSecret: "test-secret",
  botUserId: "U_BOT",
});

function tree(message: Message): Root {
  return message.formatted;
}

function tableAt(message: Message, index: number): Table {
  const node = tree(message).children[index];
  if (node?.type !== "table") throw new Error(`child ${index} is ${node?.type}, not a table`);
  return node;
}

function cellText(table: Table, row: number, column: number): string {
  const cell = table.children[row]?.children[column];
  if (cell === undefined) throw new Error(`no cell at ${row}, ${column}`);
  return toPlainText(cell);
}

function types(nodes: readonly Nodes[]): string[] {
  return nodes.map((node) => node.type);
}

const PASTED_TABLE = {
  type: "message",
  user: "U123",
  username: "alice",
  channel: "C456",
  text: "Which devices support remote firmware upgrades?",
  ts: "1786120899.208429",
  attachments: [
    {
      fallback: "[no preview available]",
      blocks: [
        {
          type: "table",
          rows: [
            [
              {
                type: "rich_text",
                elements: [
                  {
                    type: "rich_text_section",
                    elements: [{ type: "text", text: "Manufacturer", style: { bold: true } }],
                  },
                ],
              },
              { type: "raw_text", text: "Identifier Listed" },
              { type: "raw_text", text: "Units" },
            ],
            [
              { type: "raw_text", text: "Samsung" },
              { type: "raw_text", text: "QB55C" },
              { type: "raw_number", value: 3 },
            ],
          ],
        },
      ],
    },
  ],
};

function rawTable(...rows: string[][]) {
  return {
    type: "table",
    rows: rows.map((row) => row.map((text) => ({ type: "raw_text", text }))),
  };
}

describe("parseMessage", () => {
  it("marks USLACK messages as system-authored", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "USLACK",
      channel: "D456",
      channel_type: "im",
      text: "<@U123> archived the channel <#C123>",
      ts: "1234567890.123456",
    });
    expect(message.author.userId).toBe("USLACK");
    expect(message.author.isBot).toBe(false);
    expect(message.author.isSystem).toBe(true);
    expect(message.author.isMe).toBe(false);
  });

  it("preserves pasted table attachments as message content", async () => {
    const expected =
      "Which devices support remote firmware upgrades?\n\n" +
      "Manufacturer\tIdentifier Listed\tUnits\nSamsung\tQB55C\t3";
    // Both ways in: parseMessage, and a delivery through the webhook to a handler.
    const h = await harness();
    const delivered: Message[] = [];
    h.chat.onNewMessage(/.*/, (_thread, message) => {
      delivered.push(message);
    });
    await h.deliver(h.envelope(PASTED_TABLE));
    expect(delivered).toHaveLength(1);
    for (const message of [slack.parseMessage(PASTED_TABLE), ...delivered]) {
      expect(message.text).toBe(expected);
      expect(message.attachments).toHaveLength(0);
      const table = tableAt(message, 1);
      expect(cellText(table, 0, 0)).toBe("Manufacturer");
      expect(cellText(table, 0, 1)).toBe("Identifier Listed");
      expect(cellText(table, 0, 2)).toBe("Units");
      expect(cellText(table, 1, 0)).toBe("Samsung");
      expect(cellText(table, 1, 1)).toBe("QB55C");
      expect(cellText(table, 1, 2)).toBe("3");
    }
  });

  it("preserves table-only messages and ignores malformed table blocks", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1786120899.208429",
      blocks: [rawTable(["Visible"]), { type: "table", rows: "invalid" }],
      attachments: [{ blocks: [{ type: "table" }] }],
    });
    expect(message.text).toBe("Visible");
    expect(types(tree(message).children)).toEqual(["table"]);
  });

  it("preserves inline rich text within table cells", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1786120899.208429",
      blocks: [
        {
          type: "table",
          rows: [
            [
              {
                type: "rich_text",
                elements: [
                  {
                    type: "rich_text_quote",
                    elements: [
                      { type: "text", text: "See " },
                      { type: "link", text: "details", url: "https://example.com" },
                    ],
                  },
                ],
              },
            ],
          ],
        },
      ],
    });
    expect(message.text).toBe("See details");
    const table = tableAt(message, 0);
    // No bold first row: the table has no header, so its header row is empty.
    expect(table.children[0]?.children.map((cell) => cell.children)).toEqual([[]]);
    expect(table.children[1]?.children[0]?.children).toEqual([
      expect.objectContaining({ type: "text", value: "See " }),
      expect.objectContaining({
        type: "link",
        url: "https://example.com",
        children: [expect.objectContaining({ type: "text", value: "details" })],
      }),
    ]);
  });

  it("preserves rich text metadata within table cells", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1786120899.208429",
      blocks: [
        {
          type: "table",
          rows: [
            [
              {
                type: "rich_text",
                elements: [
                  {
                    type: "rich_text_section",
                    elements: [
                      { type: "channel", channel_id: "C789" },
                      { type: "text", text: " " },
                      { type: "usergroup", usergroup_id: "S789" },
                      { type: "text", text: " " },
                      {
                        type: "date",
                        timestamp: 1_720_710_212,
                        format: "{date_num}",
                        fallback: "July 11",
                      },
                      { type: "text", text: " " },
                      { type: "color", value: "#ff0000" },
                    ],
                  },
                ],
              },
            ],
          ],
        },
      ],
    });
    expect(message.text).toBe("#C789 <!subteam^S789> July 11 #ff0000");
  });

  it("formats date cells from the timestamp when no fallback is present", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1786120899.208429",
      blocks: [
        {
          type: "table",
          rows: [[{ type: "date", timestamp: 1_720_710_212, format: "{date_num}" }]],
        },
      ],
    });
    expect(message.text).toBe("2024-07-11");
    expect(message.text).not.toContain("{date_num}");
  });

  it("preserves empty and raw value cells so columns stay aligned", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1786120899.208429",
      blocks: [
        {
          type: "table",
          rows: [
            [
              { type: "raw_text", text: "Samsung" },
              { type: "raw_text", text: "" },
              { type: "raw_number", value: 3 },
            ],
            [
              { type: "raw_text", text: "LG" },
              { type: "raw_boolean", value: true },
              { type: "raw_number", value: "7" },
            ],
          ],
        },
      ],
    });
    expect(message.text).toBe("Samsung\t\t3\nLG\ttrue\t7");
  });

  it("parses data_table blocks with their header row intact", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1786120899.208429",
      blocks: [{ ...rawTable(["Manufacturer", "Units"], ["Samsung", "3"]), type: "data_table" }],
    });
    expect(message.text).toBe("Manufacturer\tUnits\nSamsung\t3");
    const table = tableAt(message, 0);
    expect(cellText(table, 0, 0)).toBe("Manufacturer");
    expect(cellText(table, 0, 1)).toBe("Units");
    expect(cellText(table, 1, 0)).toBe("Samsung");
    expect(cellText(table, 1, 1)).toBe("3");
  });

  it("ignores tables in unfurl and app attachments", () => {
    const foreign = rawTable(["Foreign"]);
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Check this out",
      ts: "1786120899.208429",
      attachments: [
        { is_msg_unfurl: true, blocks: [foreign] },
        { is_app_unfurl: true, blocks: [foreign] },
        { from_url: "https://example.com", blocks: [foreign] },
        { original_url: "https://example.com/page", blocks: [foreign] },
      ],
    });
    expect(message.text).toBe("Check this out");
    expect(tree(message).children).toHaveLength(1);
  });

  it("keeps tables pasted above the message text above it", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "The table above shows Q1",
      ts: "1786120899.208429",
      blocks: [
        rawTable(["Row"]),
        {
          type: "rich_text",
          elements: [
            {
              type: "rich_text_section",
              elements: [{ type: "text", text: "The table above shows Q1" }],
            },
          ],
        },
      ],
    });
    expect(types(tree(message).children)).toEqual(["table", "paragraph"]);
    expect(message.text).toBe("Row\n\nThe table above shows Q1");
  });

  it("does not leave raw bot mention tokens in table cells", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1786120899.208429",
      blocks: [
        {
          type: "table",
          rows: [
            [
              { type: "raw_text", text: "On call" },
              { type: "user", user_id: "UBOT123" },
            ],
          ],
        },
      ],
    });
    expect(message.text).toBe("On call\t@UBOT123");
    expect(message.text).not.toContain("<@");
  });
});

describe("Slack tables in Baton's message tree", () => {
  it("names users mentioned only in table cells from the name cache (Baton: ADR 0027)", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U_ALICE", name: "alice", displayName: "Alice" });
    const texts: string[] = [];
    h.chat.onNewMessage(/.*/, (_thread, message) => {
      texts.push(message.text);
    });
    const event = (ts: string) => ({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Rota",
      ts,
      blocks: [
        {
          type: "table",
          rows: [
            [
              { type: "raw_text", text: "On call" },
              { type: "user", user_id: "U_ALICE" },
            ],
          ],
        },
        { type: "rich_text", elements: [] },
      ],
    });
    // The first message teaches the cache (after the answer); the second is named from it.
    await h.deliver(h.envelope(event("1786120899.000001")));
    await h.settle();
    await h.deliver(h.envelope(event("1786120899.000002")));
    expect(texts).toEqual(["On call\t@U_ALICE\n\nRota", "On call\t@Alice\n\nRota"]);
  });

  it("reads emoji, broadcasts and bare links in cells, and gives a headerless table a full-width empty header", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1786120899.208429",
      blocks: [
        {
          type: "table",
          rows: [
            [
              { type: "emoji", name: "tada" },
              { type: "link", url: "https://example.com" },
            ],
            [
              "not an element",
              { type: "broadcast", range: "channel" },
              { type: "raw_text", text: "third" },
            ],
          ],
        },
      ],
    });
    const table = tableAt(message, 0);
    expect(table.children.map((row) => row.children.length)).toEqual([3, 2, 3]);
    expect(table.children[0]?.children.every((cell) => cell.children.length === 0)).toBe(true);
    expect(message.text).toBe(":tada:\thttps://example.com\n\t@channel\tthird");
  });

  it("skips blocks, attachments and rows of the wrong shape", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "Hello",
      ts: "1786120899.208429",
      blocks: [{ type: "data_table", rows: [[], "row", null] }, null],
      attachments: [null, "attachment", { blocks: "blocks" }],
    });
    expect(types(tree(message).children)).toEqual(["paragraph"]);
    expect(message.text).toBe("Hello");
  });

  it("keeps a message without tables as the tree of its text", () => {
    const message = slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: "*bold* words",
      ts: "1786120899.208429",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "*bold* words" } }],
      attachments: [{ fallback: "an image", image_url: "https://example.com/a.png" }],
    });
    expect(types(tree(message).children)).toEqual(["paragraph"]);
    expect(message.text).toBe("bold words");
  });
});
