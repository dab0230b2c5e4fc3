import { describe, expect, it } from "vitest";
import {
  answeredSlackInputBlocks,
  buildSlackFreeformView,
  cardToSlackBlocks,
  inputRequestToSlackBlocks,
  parseSlackInputResponse,
  SlackBlockError,
  type SlackCardElement,
} from "../src/blocks/index.js";
import { cardToBlockKit as adapterCardToBlockKit } from "../src/index.js";

const card = (children: SlackCardElement["children"] = []): SlackCardElement => ({
  type: "card",
  children,
});

describe("Slack Block Kit rendering options", () => {
  it("writes emoji with Slack's names from the emoji map in the adapter's own posts", () => {
    const input = card([{ content: "{{emoji:thumbs_up}} {{emoji:frame}}", type: "text" }]);
    expect(adapterCardToBlockKit(input)[0]).toEqual({
      text: { text: ":+1: :frame:", type: "mrkdwn" },
      type: "section",
    });
  });

  it("keeps to maxBlocks, saying in the last block that the card was cut", () => {
    const dividers = card(Array.from({ length: 5 }, () => ({ type: "divider" as const })));
    const blocks = cardToSlackBlocks(dividers, { maxBlocks: 3 });
    expect(blocks.map((block) => block.type)).toEqual(["divider", "divider", "context"]);
    expect(JSON.stringify(blocks[2])).toContain("card truncated");
    expect(cardToSlackBlocks(dividers, { maxBlocks: 5 })).toHaveLength(5);
  });

  it("refuses a maxBlocks Slack would refuse, naming it", () => {
    for (const maxBlocks of [0, 51, 2.5]) {
      expect(() => cardToSlackBlocks(card(), { maxBlocks })).toThrow(SlackBlockError);
      expect(() => cardToSlackBlocks(card(), { maxBlocks })).toThrow(/maxBlocks/);
    }
  });

  it("escapes the ASCII fallback so a cell shows literally and pings no one", () => {
    const table = { headers: ["who"], rows: [["<!channel> & co"]], type: "table" as const };
    const [, fallback] = cardToSlackBlocks(card([table, table]));
    expect((fallback?.text as { text: string }).text).toContain("&lt;!channel&gt; &amp; co");
  });
});

describe("Slack input request builders", () => {
  const request = { prompt: "Pick", requestId: "req-1" };

  it("offers only the freeform button when a request has no options", () => {
    const [, actions] = inputRequestToSlackBlocks(request);
    expect(actions?.elements).toEqual([
      {
        action_id: "input-freeform:req-1",
        style: "primary",
        text: { text: "Type your answer", type: "plain_text" },
        type: "button",
        value: "req-1",
      },
    ]);
  });

  it("draws more than ten radio options as a select, which Slack can show", () => {
    const options = Array.from({ length: 11 }, (_, i) => ({ id: `o${i}`, label: `O${i}` }));
    const [, actions] = inputRequestToSlackBlocks({ ...request, display: "radio", options });
    expect((actions?.elements as Array<{ type: string }>)[0]?.type).toBe("static_select");
  });

  it("refuses what Slack would refuse or cut, naming the input", () => {
    const refused = (input: Parameters<typeof inputRequestToSlackBlocks>[0], what: RegExp) =>
      expect(() => inputRequestToSlackBlocks(input)).toThrow(what);
    refused({ ...request, prompt: "" }, /prompt is empty/);
    refused({ ...request, requestId: "" }, /requestId is empty/);
    refused({ ...request, options: [{ id: "a", label: "" }] }, /options\[0\]\.label/);
    refused(
      { ...request, display: "select", options: [{ id: "v".repeat(151), label: "A" }] },
      /options\[0\]\.id must be 1 to 150/,
    );
    const many = Array.from({ length: 25 }, (_, i) => ({ id: `o${i}`, label: `O${i}` }));
    expect(() => inputRequestToSlackBlocks({ ...request, options: many })).not.toThrow();
    refused({ ...request, allowFreeform: true, options: many }, /at most 24 options, got 25/);
    refused({ ...request, requestId: "r".repeat(250) }, /longer than Slack's 255/);
    expect(() =>
      inputRequestToSlackBlocks({ ...request, options: [{ id: "", label: "A" }] }),
    ).toThrow(SlackBlockError);
  });

  it("reads no answer from actions that are not answer controls", () => {
    expect(
      parseSlackInputResponse({ actionId: "input-freeform:req-1", value: "req-1" }),
    ).toBeNull();
    expect(parseSlackInputResponse({ actionId: "approve", value: "yes" })).toBeNull();
    expect(parseSlackInputResponse({ actionId: "input:req-1:button:0" })).toBeNull();
  });

  it("round-trips an answer through the blocks it rendered", () => {
    const [, actions] = inputRequestToSlackBlocks({
      ...request,
      options: [{ id: "yes", label: "Yes" }],
    });
    const [button] = actions?.elements as Array<{ action_id: string; value: string }>;
    expect(
      parseSlackInputResponse({ actionId: button?.action_id ?? "", value: button?.value }),
    ).toEqual({ optionId: "yes", requestId: "req-1" });
  });

  it("escapes a typed answer so it shows literally and pings no one", () => {
    const [section] = answeredSlackInputBlocks({ answer: "<!channel> & me" });
    expect(section?.text).toEqual({
      text: ":white_check_mark: *&lt;!channel&gt; &amp; me*",
      type: "mrkdwn",
    });
    expect(() => answeredSlackInputBlocks({ answer: "" })).toThrow(SlackBlockError);
    expect(() => answeredSlackInputBlocks({ answer: "a", userId: "not an id" })).toThrow(TypeError);
  });

  it("cuts a freeform modal title to Slack's 24 characters and refuses oversized metadata", () => {
    const view = buildSlackFreeformView({
      metadata: "m",
      prompt: "Why did the deploy fail last night?",
    });
    expect(view.title).toEqual({
      text: `${"Why did the deploy fail".slice(0, 23)}…`,
      type: "plain_text",
    });
    expect(view.private_metadata).toBe("m");
    expect(() => buildSlackFreeformView({ metadata: "x".repeat(3_001) })).toThrow(
      /metadata is 3001 characters/,
    );
  });
});
