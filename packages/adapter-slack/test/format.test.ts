import { describe, expect, it } from "vitest";
import { escapeSlackText, SlackFormatConverter, unescapeSlackText } from "../src/index.js";

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
