import { Card, Chart, Table } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { cardToBlockKit, cardToFallbackText, type SlackBlock } from "../src/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

type Cell = { type: string; text: string };
const rowsOf = (block: SlackBlock | undefined) => block?.rows as Cell[][];
const textOf = (block: SlackBlock | undefined) => (block?.text as { text: string }).text;

describe("cardToBlockKit with CardLink", () => {
  it("converts a card with table element to a Block Kit data table", () => {
    const card = Card({
      children: [
        Table({
          headers: ["Name", "Age"],
          rows: [
            ["Alice", "30"],
            ["Bob", "25"],
          ],
        }),
      ],
    });

    const blocks = cardToBlockKit(card);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.type).toBe("data_table");
    expect(blocks[0]?.caption).toBe("Table");
    expect(blocks[0]?.page_size).toBeUndefined();
    // First row is headers, subsequent rows are data
    expect(blocks[0]?.rows).toEqual([
      [
        { type: "raw_text", text: "Name" },
        { type: "raw_text", text: "Age" },
      ],
      [
        { type: "raw_text", text: "Alice" },
        { type: "raw_text", text: "30" },
      ],
      [
        { type: "raw_text", text: "Bob" },
        { type: "raw_text", text: "25" },
      ],
    ]);
  });

  it("falls back to ASCII for second table in same card", () => {
    const card = Card({
      children: [
        Table({ headers: ["A"], rows: [["1"]] }),
        Table({ headers: ["B"], rows: [["2"]] }),
      ],
    });

    const blocks = cardToBlockKit(card);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]?.type).toBe("data_table");
    // Second table falls back to ASCII in a section block
    expect(blocks[1]?.type).toBe("section");
    expect(textOf(blocks[1])).toContain("```");
  });

  it("replaces empty table cells with a space to satisfy Slack API", () => {
    const card = Card({
      children: [
        Table({
          headers: ["Kind", ""],
          rows: [
            ["FORM", "Form Submission"],
            ["and more...", ""],
          ],
        }),
      ],
    });

    const tableBlock = cardToBlockKit(card)[0];
    expect(tableBlock?.type).toBe("data_table");
    // Every cell must have non-empty text (Slack rejects empty strings)
    for (const row of rowsOf(tableBlock)) {
      for (const cell of row) expect(cell.text.length).toBeGreaterThan(0);
    }
    expect(rowsOf(tableBlock)[0]?.[1]?.text).toBe(" "); // empty header
    expect(rowsOf(tableBlock)[2]?.[1]?.text).toBe(" "); // empty data cell
  });
});

describe("cardToBlockKit with data tables", () => {
  it("passes caption and clamped page_size through", () => {
    const card = Card({
      children: [Table({ headers: ["Name"], rows: [["Ada"]], caption: "People", pageSize: 250 })],
    });

    const blocks = cardToBlockKit(card);
    expect(blocks[0]?.type).toBe("data_table");
    expect(blocks[0]?.caption).toBe("People");
    expect(blocks[0]?.page_size).toBe(100);
  });

  it("renders header-only tables as a plain table block", () => {
    const blocks = cardToBlockKit(
      Card({ children: [Table({ headers: ["Name", "Age"], rows: [] })] }),
    );
    expect(blocks[0]?.type).toBe("table");
    expect(blocks[0]?.rows).toEqual([
      [
        { type: "raw_text", text: "Name" },
        { type: "raw_text", text: "Age" },
      ],
    ]);
  });

  it("falls back to ASCII when combined cells exceed 10,000 characters", () => {
    const bigCell = "x".repeat(5001);
    const card = Card({ children: [Table({ headers: ["A"], rows: [[bigCell], [bigCell]] })] });

    const blocks = cardToBlockKit(card);
    expect(blocks[0]?.type).toBe("section");
    expect(textOf(blocks[0])).toContain("```");
  });

  it("truncates ASCII fallback to Slack's 3,000-char section limit", () => {
    const bigCell = "x".repeat(5001);
    const card = Card({ children: [Table({ headers: ["A"], rows: [[bigCell], [bigCell]] })] });

    const text = textOf(cardToBlockKit(card)[0]);
    expect(text.length).toBeLessThanOrEqual(3000);
    // Closing code fence survives truncation
    expect(text.endsWith("\n```")).toBe(true);
  });
});

describe("cardToBlockKit with charts", () => {
  it("converts a pie chart to a data_visualization block", () => {
    const card = Card({
      children: [
        Chart({
          title: "Candy Bars",
          chart: {
            type: "pie",
            segments: [
              { label: "Kit Kat", value: 45 },
              { label: "Twix", value: 28 },
            ],
          },
        }),
      ],
    });

    const blocks = cardToBlockKit(card);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toEqual({
      type: "data_visualization",
      title: "Candy Bars",
      chart: {
        type: "pie",
        segments: [
          { label: "Kit Kat", value: 45 },
          { label: "Twix", value: 28 },
        ],
      },
    });
  });

  it("converts a bar chart with axis config and normalizes point order", () => {
    const card = Card({
      children: [
        Chart({
          title: "DAU",
          chart: {
            type: "bar",
            categories: ["Mon", "Tue"],
            xLabel: "Day",
            yLabel: "Users",
            series: [
              {
                name: "Mobile",
                data: [
                  { label: "Tue", value: 60 },
                  { label: "Mon", value: 50 },
                ],
              },
            ],
          },
        }),
      ],
    });

    expect(cardToBlockKit(card)[0]).toEqual({
      type: "data_visualization",
      title: "DAU",
      chart: {
        type: "bar",
        series: [
          {
            name: "Mobile",
            data: [
              { label: "Mon", value: 50 },
              { label: "Tue", value: 60 },
            ],
          },
        ],
        axis_config: { categories: ["Mon", "Tue"], x_label: "Day", y_label: "Users" },
      },
    });
  });

  it("omits axis labels that are not provided", () => {
    const card = Card({
      children: [
        Chart({
          title: "Sales",
          chart: {
            type: "line",
            categories: ["W1"],
            series: [{ name: "A", data: [{ label: "W1", value: 1 }] }],
          },
        }),
      ],
    });

    expect(cardToBlockKit(card)[0]?.chart).toEqual({
      type: "line",
      series: [{ name: "A", data: [{ label: "W1", value: 1 }] }],
      axis_config: { categories: ["W1"] },
    });
  });

  it("falls back to text when a pie segment value is not positive", () => {
    const card = Card({
      children: [
        Chart({
          title: "Bad Pie",
          chart: { type: "pie", segments: [{ label: "Zero", value: 0 }] },
        }),
      ],
    });

    const blocks = cardToBlockKit(card);
    expect(blocks[0]?.type).toBe("section");
    expect(textOf(blocks[0])).toContain("Bad Pie");
    expect(textOf(blocks[0])).toContain("```");
  });

  it("falls back to text when a series misses a category", () => {
    const card = Card({
      children: [
        Chart({
          title: "Gaps",
          chart: {
            type: "area",
            categories: ["Mon", "Tue"],
            series: [{ name: "A", data: [{ label: "Mon", value: 1 }] }],
          },
        }),
      ],
    });

    const blocks = cardToBlockKit(card);
    expect(blocks[0]?.type).toBe("section");
    expect(textOf(blocks[0])).toContain("```");
  });

  it("falls back to text when the title exceeds 50 characters", () => {
    const card = Card({
      children: [
        Chart({
          title: "t".repeat(51),
          chart: { type: "pie", segments: [{ label: "A", value: 1 }] },
        }),
      ],
    });

    expect(cardToBlockKit(card)[0]?.type).toBe("section");
  });

  it("falls back to text when there are more than 12 segments", () => {
    const card = Card({
      children: [
        Chart({
          title: "Too Many",
          chart: {
            type: "pie",
            segments: Array.from({ length: 13 }, (_, i) => ({ label: `S${i}`, value: i + 1 })),
          },
        }),
      ],
    });

    expect(cardToBlockKit(card)[0]?.type).toBe("section");
  });

  it("falls back to text from the third chart in one message", () => {
    const pie = (title: string) =>
      Chart({ title, chart: { type: "pie", segments: [{ label: "A", value: 1 }] } });
    const card = Card({ children: [pie("One"), pie("Two"), pie("Three")] });

    const blocks = cardToBlockKit(card);
    expect(blocks.map((b) => b.type)).toEqual([
      "data_visualization",
      "data_visualization",
      "section",
    ]);
    expect(textOf(blocks[2])).toContain("Three");
  });

  it("includes chart data in card fallback text", () => {
    const card = Card({
      title: "Report",
      children: [
        Chart({
          title: "Candy Bars",
          chart: { type: "pie", segments: [{ label: "Kit Kat", value: 45 }] },
        }),
      ],
    });

    const text = cardToFallbackText(card);
    expect(text).toContain("Candy Bars");
    expect(text).toContain("Kit Kat");
  });
});

describe("native tables and charts in posts", () => {
  let h: SlackHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("posts one data table and two charts, the rest as text, and Slack accepts the message", async () => {
    h = await createSlackHarness();
    const pie = (title: string) =>
      Chart({ title, chart: { type: "pie", segments: [{ label: "A", value: 1 }] } });
    const table = Table({ headers: ["A", "B"], rows: [["<1>", "&"]] });
    await h.adapter.postMessage(
      "slack:C123:1700000000.000100",
      Card({ children: [table, table, pie("One"), pie("Two"), pie("Three")] }),
    );

    const stored = h.fake.store.messages.at(-1)?.blocks as SlackBlock[];
    expect(stored.map((block) => block.type)).toEqual([
      "data_table",
      "section",
      "data_visualization",
      "data_visualization",
      "section",
    ]);
    // Cells are raw text; the text fallback is mrkdwn, so it is escaped.
    expect(rowsOf(stored[0])[1]).toEqual([
      { type: "raw_text", text: "<1>" },
      { type: "raw_text", text: "&" },
    ]);
    expect(textOf(stored[1])).toContain("&lt;1&gt; | &amp;");
  });

  it("refuses, as Slack does, a message with a second table, a third chart or an empty cell", async () => {
    const fake = (h = await createSlackHarness()).fake;
    const post = async (blocks: unknown[]) => {
      const response = await fetch(`${fake.apiUrl}chat.postMessage`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${fake.botToken}`,
          "content-type": "application/json; charset=utf-8",
        },
        body: JSON.stringify({ channel: "C123", text: "x", blocks }),
      });
      return (await response.json()) as { ok: boolean; error?: string };
    };
    const cell = (text: string) => [{ type: "raw_text", text }];
    const table = { type: "data_table", caption: "T", rows: [cell("A"), cell("1")] };
    const chart = {
      type: "data_visualization",
      title: "t",
      chart: { type: "pie", segments: [{ label: "A", value: 1 }] },
    };
    expect(await post([table, chart, chart])).toMatchObject({ ok: true });
    expect(await post([table, { ...table, type: "table" }])).toEqual({
      ok: false,
      error: "invalid_blocks",
    });
    expect(await post([chart, chart, chart])).toEqual({ ok: false, error: "invalid_blocks" });
    expect(await post([{ ...table, rows: [cell("A"), cell("")] }])).toEqual({
      ok: false,
      error: "invalid_blocks",
    });
  });
});
