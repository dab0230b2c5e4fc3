import { describe, expect, it } from "vitest";
import { TeamsFormatConverter } from "../src/format.js";

// Ported from upstream packages/adapter-teams/src/markdown.test.ts (titles verbatim).
describe("TeamsFormatConverter", () => {
  const converter = new TeamsFormatConverter();

  describe("fromAst (AST -> Teams format)", () => {
    it("should convert bold", () => {
      expect(converter.fromAst(converter.toAst("**bold text**"))).toContain("**bold text**");
    });

    it("should convert italic", () => {
      expect(converter.fromAst(converter.toAst("_italic text_"))).toContain("_italic text_");
    });

    it("should convert strikethrough", () => {
      expect(converter.fromAst(converter.toAst("~~strikethrough~~"))).toContain(
        "~~strikethrough~~",
      );
    });

    it("should preserve inline code", () => {
      expect(converter.fromAst(converter.toAst("Use `const x = 1`"))).toContain("`const x = 1`");
    });

    it("should handle code blocks", () => {
      const output = converter.fromAst(converter.toAst("```js\nconst x = 1;\n```"));
      expect(output).toContain("```");
      expect(output).toContain("const x = 1;");
    });

    it("should convert links to markdown format", () => {
      expect(converter.fromAst(converter.toAst("[link text](https://example.com)"))).toContain(
        "[link text](https://example.com)",
      );
    });

    it("should handle blockquotes", () => {
      expect(converter.fromAst(converter.toAst("> quoted text"))).toContain("> quoted text");
    });

    it("should handle unordered lists", () => {
      const result = converter.fromAst(converter.toAst("- item 1\n- item 2"));
      expect(result).toContain("- item 1");
      expect(result).toContain("- item 2");
    });

    it("should handle ordered lists", () => {
      const result = converter.fromAst(converter.toAst("1. first\n2. second"));
      expect(result).toContain("1.");
      expect(result).toContain("2.");
    });

    it("should indent nested unordered lists", () => {
      expect(converter.fromMarkdown("- parent\n  - child 1\n  - child 2")).toBe(
        "- parent\n  - child 1\n  - child 2",
      );
    });

    it("should indent nested ordered lists", () => {
      const result = converter.fromMarkdown(
        "1. first\n   1. sub-first\n   2. sub-second\n2. second",
      );
      expect(result).toContain("1. first");
      expect(result).toContain("  1. sub-first");
      expect(result).toContain("  2. sub-second");
      expect(result).toContain("2. second");
    });

    it("should handle deeply nested lists", () => {
      const result = converter.fromMarkdown("- level 1\n  - level 2\n    - level 3");
      expect(result).toContain("- level 1");
      expect(result).toContain("  - level 2");
      expect(result).toContain("    - level 3");
    });

    it("should keep sibling items at the same indent level", () => {
      expect(converter.fromMarkdown("- item 1\n- item 2\n- item 3")).toBe(
        "- item 1\n- item 2\n- item 3",
      );
    });

    it("should handle mixed ordered and unordered nesting", () => {
      const result = converter.fromMarkdown("1. first\n   - sub a\n   - sub b\n2. second");
      expect(result).toContain("1. first");
      expect(result).toContain("  - sub a");
      expect(result).toContain("  - sub b");
      expect(result).toContain("2. second");
    });

    it("should convert @mentions to <at>mention</at>", () => {
      expect(converter.fromAst(converter.toAst("Hello @someone"))).toContain("<at>someone</at>");
    });

    it("should not turn email addresses into mentions", () => {
      const result = converter.renderPostable({ raw: "email user@example.com" });
      expect(result).toContain("user@example.com");
      expect(result).not.toContain("<at>example</at>");
    });

    it("should not mangle an @handle inside a url", () => {
      const result = converter.renderPostable({ raw: "see https://github.com/@vercel" });
      expect(result).toContain("https://github.com/@vercel");
      expect(result).not.toContain("<at>vercel</at>");
    });

    it("should handle thematic breaks", () => {
      expect(converter.fromAst(converter.toAst("text\n\n---\n\nmore"))).toContain("---");
    });
  });

  describe("toAst (Teams HTML -> AST)", () => {
    it("should convert <at> mentions to @mentions", () => {
      expect(converter.extractPlainText("<at>John</at> said hi")).toContain("@John");
    });

    it("should convert <b> tags to bold", () => {
      const ast = converter.toAst("<b>bold</b>");
      expect(ast.type).toBe("root");
      expect(converter.fromAst(ast)).toContain("**bold**");
    });

    it("should convert <strong> tags to bold", () => {
      expect(converter.fromAst(converter.toAst("<strong>bold</strong>"))).toContain("**bold**");
    });

    it("should convert <i> tags to italic", () => {
      expect(converter.fromAst(converter.toAst("<i>italic</i>"))).toContain("_italic_");
    });

    it("should convert <em> tags to italic", () => {
      expect(converter.fromAst(converter.toAst("<em>italic</em>"))).toContain("_italic_");
    });

    it("should convert <s> tags to strikethrough", () => {
      expect(converter.fromAst(converter.toAst("<s>struck</s>"))).toContain("~~struck~~");
    });

    it("should convert <a> tags to links", () => {
      expect(
        converter.fromAst(converter.toAst('<a href="https://example.com">link</a>')),
      ).toContain("[link](https://example.com)");
    });

    it("should convert <code> tags to inline code", () => {
      expect(converter.fromAst(converter.toAst("<code>const x</code>"))).toContain("`const x`");
    });

    it("should convert <pre> tags to code blocks", () => {
      const result = converter.fromAst(converter.toAst("<pre>const x = 1;</pre>"));
      expect(result).toContain("```");
      expect(result).toContain("const x = 1;");
    });

    it("should strip remaining HTML tags", () => {
      expect(converter.extractPlainText("<div><span>hello</span></div>")).toBe("hello");
    });

    it("should decode HTML entities", () => {
      const text = converter.extractPlainText(
        "&lt;b&gt;not bold&lt;/b&gt; &amp; &quot;quoted&quot;",
      );
      expect(text).toContain("<b>");
      expect(text).toContain("&");
      expect(text).toContain('"quoted"');
    });
  });

  describe("renderPostable", () => {
    it("should convert @mentions in plain strings", () => {
      expect(converter.renderPostable("Hello @user")).toBe("Hello <at>user</at>");
    });

    it("should convert @mentions in raw messages", () => {
      expect(converter.renderPostable({ raw: "Hello @user" })).toBe("Hello <at>user</at>");
    });

    it("should render markdown messages", () => {
      expect(converter.renderPostable({ markdown: "Hello **world**" })).toContain("**world**");
    });

    it("should render AST messages", () => {
      const ast = converter.toAst("Hello **world**");
      expect(converter.renderPostable({ ast })).toContain("**world**");
    });

    it("should handle empty message", () => {
      expect(converter.renderPostable("")).toBe("");
    });
  });

  describe("extractPlainText", () => {
    it("should remove bold markers", () => {
      expect(converter.extractPlainText("Hello **world**!")).toBe("Hello world!");
    });

    it("should remove italic markers", () => {
      expect(converter.extractPlainText("Hello _world_!")).toBe("Hello world!");
    });

    it("should handle empty string", () => {
      expect(converter.extractPlainText("")).toBe("");
    });

    it("should handle plain text", () => {
      expect(converter.extractPlainText("Hello world")).toBe("Hello world");
    });

    it("should handle inline code", () => {
      expect(converter.extractPlainText("Use `const x = 1`")).toContain("const x = 1");
    });
  });

  describe("table rendering", () => {
    it("should render markdown tables as GFM tables", () => {
      const result = converter.fromMarkdown("| Name | Age |\n|------|-----|\n| Alice | 30 |");
      expect(result).toContain("| Name | Age |");
      expect(result).toContain("| --- | --- |");
      expect(result).toContain("| Alice | 30 |");
    });

    it("should render tables with pipe syntax", () => {
      const result = converter.fromMarkdown("| A | B |\n|---|---|\n| 1 | 2 |");
      expect(result).toContain("|");
      expect(result).not.toContain("```");
    });
  });
});

describe("Teams markdown (Baton)", () => {
  const converter = new TeamsFormatConverter();

  it("writes headings as bold lines and keeps mentions out of link targets", () => {
    expect(converter.fromMarkdown("# Title\n\n[@docs](https://x.test/@docs)")).toBe(
      "**Title**\n\n[@docs](https://x.test/@docs)",
    );
  });
});
