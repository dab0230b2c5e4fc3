import { describe, expect, it } from "vitest";
import {
  endsWithOrphanBackslash,
  escapeMarkdownV2,
  findUnescapedPositions,
  TelegramFormatConverter,
  truncateForTelegram,
} from "../src/index.js";

const TABLE_PIPE_PATTERN = /\|.*Name.*\|/;
const TRAILING_TRIPLE_BACKTICK_PATTERN = /```\s*$/;
const BASH_CODE_BLOCK_PATTERN = /```bash\n([\s\S]*?)\n```/;
const ESCAPED_ELLIPSIS_PATTERN = /\\\.\\\.\\\.$/;

// The characters MarkdownV2 reserves in text (Bot API docs, "MarkdownV2 style"), and the backslash.
const MARKDOWNV2_SPECIAL_CHARS = [
  "_",
  "*",
  "[",
  "]",
  "(",
  ")",
  "~",
  "`",
  ">",
  "#",
  "+",
  "-",
  "=",
  "|",
  "{",
  "}",
  ".",
  "!",
  "\\",
];

describe("escapeMarkdownV2", () => {
  // Upstream generates one test per character from a template; the manifest records that
  // template as the title, so this test keeps it literally and checks every character.
  it("escapes the special character ${JSON.stringify(char)}", () => {
    for (const char of MARKDOWNV2_SPECIAL_CHARS) {
      expect(escapeMarkdownV2(`a${char}b`), JSON.stringify(char)).toBe(`a\\${char}b`);
    }
  });

  it("leaves non-special ASCII untouched", () => {
    expect(escapeMarkdownV2("Hello world 123")).toBe("Hello world 123");
  });

  it("leaves unicode characters untouched", () => {
    expect(escapeMarkdownV2("café — €50")).toBe("café — €50");
  });

  it("escapes multiple special characters in one string", () => {
    expect(escapeMarkdownV2("a.b!c(d)")).toBe("a\\.b\\!c\\(d\\)");
  });

  it("handles empty input", () => {
    expect(escapeMarkdownV2("")).toBe("");
  });
});

describe("TelegramFormatConverter", () => {
  const converter = new TelegramFormatConverter();
  const render = (markdown: string) => converter.fromAst(converter.toAst(markdown));

  describe("fromAst — inline formatting", () => {
    it("passes plain text through unchanged", () => {
      expect(render("Hello world")).toBe("Hello world");
    });

    it("renders bold with single asterisks", () => {
      expect(render("**bold text**")).toBe("*bold text*");
    });

    it("renders italic with underscores", () => {
      expect(render("*italic text*")).toBe("_italic text_");
    });

    it("renders strikethrough with single tilde", () => {
      expect(render("~~strikethrough~~")).toBe("~strikethrough~");
    });

    it("escapes special chars inside bold", () => {
      expect(render("**Note: important!**")).toBe("*Note: important\\!*");
    });

    it("escapes special chars inside italic", () => {
      expect(render("*price: $50.*")).toBe("_price: $50\\._");
    });

    it("preserves inline code content verbatim", () => {
      expect(render("Use `const x = 1`")).toContain("`const x = 1`");
    });

    it("escapes only backtick and backslash inside inline code", () => {
      expect(render("Use `foo.bar!` here").includes("`foo.bar!`")).toBe(true);
    });
  });

  describe("fromAst — code blocks", () => {
    it("wraps code blocks with triple backticks and language", () => {
      const output = render("```js\nconst x = 1;\n```");
      expect(output).toContain("```js");
      expect(output).toContain("const x = 1;");
      expect(output).toMatch(TRAILING_TRIPLE_BACKTICK_PATTERN);
    });

    it("escapes only backtick and backslash inside fenced code", () => {
      expect(render("```\nfoo.bar! + (test) = [ok]\n```")).toContain("foo.bar! + (test) = [ok]");
    });

    it("escapes a backslash inside fenced code", () => {
      expect(render("```\npath\\\\to\\\\file\n```")).toContain("\\\\");
    });
  });

  describe("fromAst — links and images", () => {
    it("renders inline links", () => {
      expect(render("[click](https://example.com)")).toBe("[click](https://example.com)");
    });

    it("escapes only ) and \\ inside the URL", () => {
      expect(render("[label](https://example.com/path)")).toBe("[label](https://example.com/path)");
    });

    it("escapes special chars inside link label text", () => {
      expect(render("[hello!](https://example.com)")).toBe("[hello\\!](https://example.com)");
    });

    it("renders an image as a link to the source", () => {
      const output = render("![alt text](https://example.com/pic.png)");
      expect(output).toContain("alt text");
      expect(output).toContain("https://example.com/pic.png");
    });
  });

  describe("fromAst — block structures", () => {
    it("renders headings as bold (all levels)", () => {
      for (const level of [1, 2, 3, 4, 5, 6]) {
        expect(render(`${"#".repeat(level)} Title`)).toBe("*Title*");
      }
    });

    it("renders unordered lists with escaped dashes", () => {
      const output = render("- one\n- two");
      expect(output).toContain("\\- one");
      expect(output).toContain("\\- two");
    });

    it("renders ordered lists with escaped periods", () => {
      const output = render("1. first\n2. second");
      expect(output).toContain("1\\. first");
      expect(output).toContain("2\\. second");
    });

    it("renders blockquotes with > prefix per line", () => {
      expect(render("> quoted text")).toContain(">quoted text");
    });

    it("renders thematic break as escaped em-dashes", () => {
      expect(render("---")).toBe("———");
    });

    it("converts tables to ASCII code blocks and drops pipe syntax", () => {
      const output = render("| Name | Age |\n|------|-----|\n| Alice | 30 |");
      expect(output).toContain("```");
      expect(output).toContain("Name");
      expect(output).toContain("Alice");
      expect(output).not.toMatch(TABLE_PIPE_PATTERN);
    });
  });

  describe("fromAst — nested formatting", () => {
    it("renders bold containing italic", () => {
      const output = render("**bold _italic_**");
      expect(output).toContain("*");
      expect(output).toContain("_italic_");
    });

    it("renders link containing inline code", () => {
      const output = render("[`code` link](https://example.com)");
      expect(output).toContain("`code`");
      expect(output).toContain("https://example.com");
    });

    it("renders list containing bold", () => {
      const output = render("- **important** one\n- plain two");
      expect(output).toContain("*important*");
      expect(output).toContain("plain two");
    });
  });

  describe("fromAst — edge cases", () => {
    it("handles empty input", () => {
      expect(render("")).toBe("");
    });

    it("handles whitespace-only input", () => {
      expect(render("   ")).toBe("");
    });

    it("trims trailing whitespace", () => {
      expect(render("Hello\n\n").endsWith("\n")).toBe(false);
    });

    it("escapes HTML input literally rather than interpreting it", () => {
      expect(render("<b>hi</b>")).not.toContain("<b>");
    });
  });

  describe("fromAst — MarkdownV2 validity invariant (corpus)", () => {
    const LLM_CORPUS = [
      "# Trip Summary: Morocco",
      "",
      "Here's your **personalized** 7-day itinerary. Price: $2,450 per person (all-inclusive)!",
      "",
      "## Day 1 — Arrival in Marrakech",
      "",
      "- Airport pickup at 14:30",
      "- Check-in at *Riad El Fenn* (4-star)",
      "- Welcome dinner: [La Mamounia](https://www.mamounia.com/restaurants)",
      "",
      "> Tip: bring cash — not every souk accepts cards.",
      "",
      "## Day 2 — Atlas Mountains",
      "",
      "1. 08:00 breakfast",
      "2. 09:00 departure (2h drive)",
      "3. Hike to Toubkal base camp",
      "",
      "Pack: `sunscreen`, `hiking boots`, *layers* (temperatures drop ~10°C).",
      "",
      "```bash",
      "# Exchange rate check",
      "curl 'https://api.rates.io/MAD' | jq '.rate'",
      "```",
      "",
      "| Day | Activity | Cost |",
      "|-----|----------|------|",
      "| 1 | Arrival | $200 |",
      "| 2 | Atlas | $350 |",
      "",
      "---",
      "",
      "~~Previous version priced at $2,800~~. New total: **$2,450**.",
    ].join("\n");

    it("produces non-empty output covering every structural element", () => {
      const output = render(LLM_CORPUS);
      expect(output).toContain("*Trip Summary");
      expect(output).toContain("\\- Airport pickup");
      expect(output).toContain("1\\. 08:00 breakfast");
      expect(output).toContain("_Riad El Fenn_");
      expect(output).toContain("[La Mamounia](https://www.mamounia.com/restaurants)");
      expect(output).toContain(">Tip:");
      expect(output).toContain("```");
      expect(output).toContain("~Previous version");
      expect(output).toContain("———");
    });

    it("escapes every in-text MarkdownV2 special character outside code and link URLs", () => {
      const output = render(LLM_CORPUS);
      const withoutCodeBlocks = output.replace(/```[\s\S]*?```/g, "");
      const withoutInlineCode = withoutCodeBlocks.replace(/`[^`]*`/g, "");
      const withoutLinkUrls = withoutInlineCode.replace(/\]\([^)]*\)/g, "]()");
      for (const char of ["+", "=", "{", "}", ".", "!", "|"]) {
        const pattern = new RegExp(`(?<!\\\\)\\${char}`, "g");
        expect(withoutLinkUrls.match(pattern), `unescaped ${char}`).toBeNull();
      }
    });

    it("preserves code block contents verbatim (no over-escaping)", () => {
      const match = BASH_CODE_BLOCK_PATTERN.exec(render(LLM_CORPUS));
      expect(match).not.toBeNull();
      const code = match?.[1] ?? "";
      expect(code).toContain("'");
      expect(code).toContain("|");
      expect(code).toContain(".");
    });
  });

  describe("renderPostable", () => {
    it("returns a plain string as-is", () => {
      expect(converter.renderPostable("Hello world")).toBe("Hello world");
    });

    it("returns an empty string unchanged", () => {
      expect(converter.renderPostable("")).toBe("");
    });

    it("returns a raw message directly", () => {
      expect(converter.renderPostable({ raw: "raw content" })).toBe("raw content");
    });

    it("renders a markdown message as MarkdownV2", () => {
      const result = converter.renderPostable({ markdown: "**bold** and *italic*" });
      expect(result).toContain("*bold*");
      expect(result).toContain("_italic_");
    });

    it("renders an AST message", () => {
      expect(converter.renderPostable({ ast: converter.toAst("Hello from AST") })).toContain(
        "Hello from AST",
      );
    });

    it("renders a markdown table as a code block", () => {
      const result = converter.renderPostable({ markdown: "| A | B |\n| --- | --- |\n| 1 | 2 |" });
      expect(result).toContain("```");
      expect(result).toContain("A");
    });
  });

  describe("toAst", () => {
    const expectParsed = (input: string) => {
      const ast = converter.toAst(input);
      expect(ast.type).toBe("root");
      expect(ast.children.length).toBeGreaterThan(0);
    };

    it("parses plain text", () => {
      expectParsed("Hello world");
    });

    it("parses bold", () => {
      expectParsed("**bold**");
    });

    it("parses italic", () => {
      expectParsed("*italic*");
    });

    it("parses inline code", () => {
      expectParsed("`code`");
    });
  });

  describe("extractPlainText", () => {
    it("strips bold markers", () => {
      expect(converter.extractPlainText("Hello **world**!")).toBe("Hello world!");
    });

    it("strips italic markers", () => {
      expect(converter.extractPlainText("Hello *world*!")).toBe("Hello world!");
    });

    it("strips strikethrough markers", () => {
      expect(converter.extractPlainText("Hello ~~world~~!")).toBe("Hello world!");
    });

    it("extracts link text", () => {
      expect(converter.extractPlainText("Check [this](https://example.com)")).toBe("Check this");
    });

    it("preserves inline code content", () => {
      expect(converter.extractPlainText("Use `const x = 1`")).toContain("const x = 1");
    });

    it("preserves code block content", () => {
      expect(converter.extractPlainText("```js\nconst x = 1;\n```")).toContain("const x = 1;");
    });

    it("returns plain text unchanged", () => {
      expect(converter.extractPlainText("Hello world")).toBe("Hello world");
    });

    it("returns empty string unchanged", () => {
      expect(converter.extractPlainText("")).toBe("");
    });

    it("strips all formatting from complex input", () => {
      const result = converter.extractPlainText("**Bold** and *italic* with [link](https://x.com)");
      expect(result).toContain("Bold");
      expect(result).toContain("italic");
      expect(result).toContain("link");
      expect(result).not.toContain("**");
      expect(result).not.toContain("](");
    });
  });
});

describe("truncateForTelegram", () => {
  it("returns text unchanged when under limit", () => {
    expect(truncateForTelegram("hello", 100, "plain")).toBe("hello");
  });

  it("truncates plain text with literal ellipsis", () => {
    const result = truncateForTelegram("a".repeat(200), 100, "plain");
    expect(result.length).toBe(100);
    expect(result.endsWith("...")).toBe(true);
  });

  it("truncates MarkdownV2 with escaped ellipsis", () => {
    const result = truncateForTelegram("a".repeat(200), 100, "MarkdownV2");
    expect(result.length).toBeLessThanOrEqual(100);
    expect(result.endsWith("\\.\\.\\.")).toBe(true);
  });

  it("strips orphan backslash before ellipsis", () => {
    const result = truncateForTelegram(`${"a".repeat(90)}\\${"b".repeat(50)}`, 100, "MarkdownV2");
    expect(endsWithOrphanBackslash(result.replace(ESCAPED_ELLIPSIS_PATTERN, ""))).toBe(false);
    expect(result.endsWith("\\.\\.\\.")).toBe(true);
  });

  it("strips unclosed bold before ellipsis", () => {
    const result = truncateForTelegram(`${"a".repeat(80)}*${"b".repeat(100)}`, 100, "MarkdownV2");
    const before = result.replace(ESCAPED_ELLIPSIS_PATTERN, "");
    expect([...before].filter((c) => c === "*").length % 2).toBe(0);
  });

  it("handles input that is all special chars", () => {
    const result = truncateForTelegram(escapeMarkdownV2(".".repeat(200)), 100, "MarkdownV2");
    expect(result.length).toBeLessThanOrEqual(100);
    expect(result.endsWith("\\.\\.\\.")).toBe(true);
  });

  it("strips unpaired entity markers when under the limit (streaming leak)", () => {
    // A stream cut mid-entity: the bold never closed yet.
    expect(truncateForTelegram("*done* and *still typ", 100, "MarkdownV2")).toBe(
      "*done* and still typ",
    );
  });

  it("preserves code fences with literal asterisks (no false-positive trim)", () => {
    const input = "```\nlet a = b * c;\n```";
    expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(input);
  });

  it("does not modify plain parseMode messages", () => {
    expect(truncateForTelegram("*unbalanced _ text", 100, "plain")).toBe("*unbalanced _ text");
  });

  it("preserves balanced MarkdownV2 under the limit (no-op)", () => {
    const input = "*bold* _italic_ ~strike~ `code` [link](https://example.com)";
    expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(input);
  });

  describe("link URLs with raw entity-marker characters", () => {
    it("preserves a link whose URL contains one underscore", () => {
      const input = "[docs](https://example.com/a_b)";
      expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(input);
    });

    it("preserves a link whose URL contains an odd number of underscores", () => {
      const input = "see [docs](https://example.com/a_b_c_d) now";
      expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(input);
    });

    it("preserves surrounding entities alongside an underscore-bearing URL", () => {
      const input = "*bold* [docs](https://example.com/a_b) _italic_";
      expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(input);
    });

    it("preserves a link whose URL contains * and ~", () => {
      const input = "[docs](https://example.com/*x~y)";
      expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(input);
    });

    it("preserves a message ending with a link whose URL has odd underscores (regression)", () => {
      const input = "read this: [guide](https://example.com/my_long_guide)";
      expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(input);
    });

    it("still strips an unpaired underscore outside any link URL", () => {
      expect(truncateForTelegram("a_b [docs](https://example.com/c_d)", 100, "MarkdownV2")).toBe(
        "ab [docs](https://example.com/c_d)",
      );
    });
  });

  it("trims back to before the [ when hard-truncated inside a link URL", () => {
    const input = `${"a".repeat(80)} [docs](https://example.com/${"x".repeat(50)})`;
    expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(`${"a".repeat(80)} \\.\\.\\.`);
  });

  it("trims at the orphan * when hard-truncated inside bold", () => {
    const input = `${"a".repeat(80)}*${"b".repeat(50)}*`;
    expect(truncateForTelegram(input, 100, "MarkdownV2")).toBe(`${"a".repeat(80)}\\.\\.\\.`);
  });
});

describe("findUnescapedPositions", () => {
  it("finds unescaped markers", () => {
    expect(findUnescapedPositions("*a*", "*")).toEqual([0, 2]);
  });

  it("ignores escaped markers", () => {
    expect(findUnescapedPositions("\\*a*", "*")).toEqual([3]);
  });

  it("handles double backslash (escaped backslash) before marker", () => {
    expect(findUnescapedPositions("\\\\*", "*")).toEqual([2]);
  });

  it("returns empty for no markers", () => {
    expect(findUnescapedPositions("hello", "*")).toEqual([]);
  });
});

describe("endsWithOrphanBackslash", () => {
  it("returns true for single trailing backslash", () => {
    expect(endsWithOrphanBackslash("abc\\")).toBe(true);
  });

  it("returns false for double trailing backslash", () => {
    expect(endsWithOrphanBackslash("abc\\\\")).toBe(false);
  });

  it("returns true for triple trailing backslash", () => {
    expect(endsWithOrphanBackslash("abc\\\\\\")).toBe(true);
  });

  it("returns false for no trailing backslash", () => {
    expect(endsWithOrphanBackslash("abc")).toBe(false);
  });

  it("returns false for empty string", () => {
    expect(endsWithOrphanBackslash("")).toBe(false);
  });
});
