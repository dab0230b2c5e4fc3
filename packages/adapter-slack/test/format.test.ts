import { describe, expect, it } from "vitest";
import {
  createSlackMrkdwn,
  createSlackPlainText,
  escapeSlackText,
  formatSlackChannel,
  formatSlackDate,
  formatSlackLink,
  formatSlackSpecialMention,
  formatSlackUser,
  formatSlackUserGroup,
  linkBareSlackMentions,
  markdownBoldToSlackMrkdwn,
  SlackFormatConverter,
  slackMrkdwnToMarkdown,
  unescapeSlackText,
} from "../src/index.js";

describe("SlackFormatConverter", () => {
  const converter = new SlackFormatConverter();

  describe("toMarkdown (mrkdwn -> markdown)", () => {
    it("should convert bold", () => {
      expect(converter.toMarkdown("Hello *world*!")).toContain("**world**");
    });

    it("should convert strikethrough", () => {
      expect(converter.toMarkdown("Hello ~world~!")).toContain("~~world~~");
    });

    it("should convert links with text", () => {
      expect(converter.toMarkdown("Check <https://example.com|this>")).toContain(
        "[this](https://example.com)",
      );
    });

    it("should convert bare links", () => {
      expect(converter.toMarkdown("Visit <https://example.com>")).toContain("https://example.com");
    });

    it("should convert user mentions", () => {
      expect(converter.toMarkdown("Hey <@U123|john>!")).toContain("@john");
    });

    it("should convert channel mentions", () => {
      expect(converter.toMarkdown("Join <#C123|general>")).toContain("#general");
    });

    it("should convert bare channel ID mentions", () => {
      expect(converter.toMarkdown("Join <#C123>")).toContain("#C123");
    });
  });

  describe("toSlackPayload", () => {
    it("routes plain strings to text (preserves literal markdown chars)", () => {
      expect(converter.toSlackPayload("Use *foo* literally")).toEqual({
        text: "Use *foo* literally",
      });
    });

    it("routes raw strings to text", () => {
      expect(converter.toSlackPayload({ raw: "*already mrkdwn*" })).toEqual({
        text: "*already mrkdwn*",
      });
    });

    it("renders markdown to mrkdwn text (Baton: no markdown_text)", () => {
      expect(converter.toSlackPayload({ markdown: "## Heading\n\n- a\n- b" })).toEqual({
        text: "*Heading*\n\n• a\n• b",
      });
    });
  });

  describe("toResponseUrlText", () => {
    it("renders markdown to Slack mrkdwn text", () => {
      expect(
        converter.toResponseUrlText({ markdown: "**Bold** and [link](https://example.com)" }),
      ).toBe("*Bold* and <https://example.com|link>");
    });

    it("renders markdown tables as ASCII code blocks", () => {
      expect(
        converter.toResponseUrlText({ markdown: "| A | B |\n|---|---|\n| 1 | 2 |" }),
      ).toContain("```\n");
    });
  });

  describe("mentions", () => {
    it("does not double-wrap existing <@U123> mentions in plain strings", () => {
      expect(converter.toSlackPayload("Hey <@U12345>. Please select")).toEqual({
        text: "Hey <@U12345>. Please select",
      });
    });

    it("does not mangle email addresses in plain strings", () => {
      expect(converter.toSlackPayload("Contact user@example.com for help")).toEqual({
        text: "Contact user@example.com for help",
      });
    });

    it("does not mangle mailto links", () => {
      expect(converter.toSlackPayload("Email <mailto:user@example.com>")).toEqual({
        text: "Email <mailto:user@example.com>",
      });
    });

    it("keeps <@U…> and <#C…> sequences when markdown text is escaped", () => {
      expect(converter.fromMarkdown("Hey <@U12345> in <#C1|general>: 1 < 2 & 3 > 2")).toBe(
        "Hey <@U12345> in <#C1|general>: 1 &lt; 2 &amp; 3 &gt; 2",
      );
    });
  });

  describe("toPlainText", () => {
    it("should remove bold markers", () => {
      expect(converter.toPlainText("Hello *world*!")).toBe("Hello world!");
    });

    it("should remove italic markers", () => {
      expect(converter.toPlainText("Hello _world_!")).toBe("Hello world!");
    });

    it("should extract link text", () => {
      expect(converter.toPlainText("Check <https://example.com|this>")).toBe("Check this");
    });

    it("should format user mentions", () => {
      expect(converter.toPlainText("Hey <@U123>!")).toContain("@U123");
    });

    it("should handle complex messages", () => {
      const result = converter.toPlainText(
        "*Bold* and _italic_ with <https://x.com|link> and <@U123|user>",
      );
      for (const word of ["Bold", "italic", "link", "user"]) expect(result).toContain(word);
      expect(result).not.toContain("*");
      expect(result).not.toContain("<");
    });
  });

  describe("round trips", () => {
    it("reads its own output back to the same markdown marks", () => {
      const markdown = "**bold**, *italic*, ~~gone~~, `code` and [site](https://x.dev)";
      const mrkdwn = converter.fromMarkdown(markdown);
      expect(mrkdwn).toBe("*bold*, _italic_, ~gone~, `code` and <https://x.dev|site>");
      expect(converter.toMarkdown(mrkdwn).trim()).toBe(
        "**bold**, *italic*, ~~gone~~, `code` and [site](https://x.dev)",
      );
    });

    it("leaves mrkdwn inside code spans and blocks alone", () => {
      expect(converter.toMarkdown("`*not bold*` and\n```\n<@U1> *x*\n```")).toContain(
        "`*not bold*`",
      );
      expect(converter.toMarkdown("```\n<@U1> *x*\n```")).toContain("<@U1> *x*");
    });
  });
});

describe("Slack format primitives", () => {
  it("escapes Slack mrkdwn control characters", () => {
    expect(escapeSlackText("a & b < c > d")).toBe("a &amp; b &lt; c &gt; d");
  });

  it("unescapes Slack mrkdwn control characters", () => {
    expect(unescapeSlackText("a &amp; b &lt; c &gt; d")).toBe("a & b < c > d");
  });
});

describe("Slack format primitives", () => {
  it("creates plain_text objects", () => {
    expect(createSlackPlainText("Hi")).toEqual({ type: "plain_text", text: "Hi" });
    expect(createSlackPlainText("Hi", { emoji: true })).toEqual({
      type: "plain_text",
      text: "Hi",
      emoji: true,
    });
  });

  it("rejects invalid text object lengths", () => {
    expect(() => createSlackPlainText("")).toThrow(TypeError);
    expect(() => createSlackMrkdwn("x".repeat(3_001))).toThrow(/between 1 and 3000/);
    expect(createSlackMrkdwn("x".repeat(3_000)).text).toHaveLength(3_000);
  });

  it("creates mrkdwn objects", () => {
    expect(createSlackMrkdwn("*b*")).toEqual({ type: "mrkdwn", text: "*b*" });
    expect(createSlackMrkdwn("*b*", { verbatim: true })).toEqual({
      type: "mrkdwn",
      text: "*b*",
      verbatim: true,
    });
  });

  it("formats Slack user mentions", () => {
    expect(formatSlackUser("U123")).toBe("<@U123>");
    expect(() => formatSlackUser("u 1")).toThrow(/userId must be a Slack ID/);
  });

  it("formats Slack channel mentions", () => {
    expect(formatSlackChannel("C123")).toBe("<#C123>");
    expect(() => formatSlackChannel("C1>")).toThrow(/channelId/);
  });

  it("formats Slack user group mentions", () => {
    expect(formatSlackUserGroup("S123")).toBe("<!subteam^S123>");
    expect(() => formatSlackUserGroup("S^1")).toThrow(/userGroupId/);
  });

  it("formats Slack special mentions", () => {
    expect(formatSlackSpecialMention("here")).toBe("<!here>");
    expect(formatSlackSpecialMention("channel")).toBe("<!channel>");
    expect(formatSlackSpecialMention("everyone")).toBe("<!everyone>");
  });

  it("formats Slack links", () => {
    expect(formatSlackLink("https://example.com")).toBe("<https://example.com>");
    expect(formatSlackLink("https://example.com", "A & B")).toBe("<https://example.com|A &amp; B>");
  });

  it("rejects unsafe Slack link control characters", () => {
    expect(() => formatSlackLink("https://x.test/|evil")).toThrow(/control characters/);
    expect(() => formatSlackLink("https://x.test/<@U1>")).toThrow(TypeError);
  });

  it("formats Slack dates", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const seconds = Math.floor(at.getTime() / 1_000);
    expect(formatSlackDate(at, "{date_short}", "Jan 2")).toBe(
      `<!date^${seconds}^{date_short}|Jan 2>`,
    );
    expect(formatSlackDate(seconds, "{time}", "a < b", { link: "https://x.test" })).toBe(
      `<!date^${seconds}^{time}^https://x.test|a &lt; b>`,
    );
    expect(() => formatSlackDate(1.5, "{time}", "x")).toThrow(/integer unix timestamp/);
    expect(() => formatSlackDate(seconds, "{time}|x", "x")).toThrow(/date control/);
  });

  it("normalizes Slack mrkdwn to Markdown", () => {
    expect(
      slackMrkdwnToMarkdown("*bold* ~gone~ <@U1> <@U2|ann> <https://x.test|site> a &amp; b"),
    ).toBe("**bold** ~~gone~~ @U1 @ann [site](https://x.test) a & b");
  });

  it("preserves the channel ID for labeled channel tokens", () => {
    expect(slackMrkdwnToMarkdown("see <#C123|general> and <#C9>")).toBe(
      "see #general (C123) and #C9",
    );
  });

  it("normalizes bare Slack links to Markdown URLs", () => {
    expect(slackMrkdwnToMarkdown("go to <https://x.test/a>")).toBe("go to https://x.test/a");
  });

  it("normalizes inverted Slack link tokens before Markdown conversion", () => {
    expect(slackMrkdwnToMarkdown("<the docs|https://x.test/docs>")).toBe(
      "[the docs](https://x.test/docs)",
    );
  });

  it("does not invert links whose display label is itself a URL", () => {
    expect(slackMrkdwnToMarkdown("<https://a.test|https://b.test>")).toBe(
      "[https://b.test](https://a.test)",
    );
  });

  it("converts basic Markdown bold to Slack mrkdwn bold", () => {
    expect(markdownBoldToSlackMrkdwn("a **b** c **d e**")).toBe("a *b* c *d e*");
  });

  it("links bare mention-like tokens without touching emails", () => {
    expect(linkBareSlackMentions("hi @U123, mail ann@EXAMPLE.com, keep <@U9>")).toBe(
      "hi <@U123>, mail ann@EXAMPLE.com, keep <@U9>",
    );
  });
});
