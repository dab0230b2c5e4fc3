/**
 * Ports upstream `chat`'s markdown.test.ts (parsing, stringifying, plain text, walker, builders,
 * tables, type guards, node accessors) with its titles, inputs and assertions. The
 * BaseFormatConverter block is in converter.test.ts.
 */
import type { Content, Root, Table } from "mdast";
import { describe, expect, it } from "vitest";
import {
  blockquote,
  codeBlock,
  emphasis,
  getNodeChildren,
  getNodeValue,
  inlineCode,
  isBlockquoteNode,
  isCodeNode,
  isDeleteNode,
  isEmphasisNode,
  isInlineCodeNode,
  isLinkNode,
  isListItemNode,
  isListNode,
  isParagraphNode,
  isStrongNode,
  isTableCellNode,
  isTableNode,
  isTableRowNode,
  isTextNode,
  link,
  markdownToPlainText,
  paragraph,
  parseMarkdown,
  root,
  strikethrough,
  stringifyMarkdown,
  strong,
  tableElementToAscii,
  tableToAscii,
  text,
  toPlainText,
  walkAst,
} from "../../src/content/index.js";

/** The first child of the first block, for "the paragraph's first inline" assertions. */
function firstInline(ast: Root): Content {
  const block = ast.children[0];
  if (block === undefined || !("children" in block))
    throw new Error("no first block with children");
  const inline = block.children[0];
  if (inline === undefined) throw new Error("first block is empty");
  return inline;
}

function firstTable(ast: Root): Table {
  const node = ast.children[0];
  if (node === undefined || !isTableNode(node)) throw new Error("no table");
  return node;
}

const BOT_MENTION_WITH_WHITESPACE = /@test-bot\s+hi there/;

describe("parseMarkdown", () => {
  it("parses plain text", () => {
    const ast = parseMarkdown("Hello, world!");
    expect(ast.type).toBe("root");
    expect(ast.children).toHaveLength(1);
    expect(ast.children[0]?.type).toBe("paragraph");
  });

  it("parses bold text", () => {
    expect(firstInline(parseMarkdown("**bold**")).type).toBe("strong");
  });

  it("parses italic text", () => {
    expect(firstInline(parseMarkdown("_italic_")).type).toBe("emphasis");
  });

  it("parses strikethrough (GFM)", () => {
    expect(firstInline(parseMarkdown("~~deleted~~")).type).toBe("delete");
  });

  it("parses inline code", () => {
    expect(firstInline(parseMarkdown("`code`")).type).toBe("inlineCode");
  });

  it("parses code blocks", () => {
    const ast = parseMarkdown("```javascript\nconst x = 1;\n```");
    const node = ast.children[0];
    expect(node?.type).toBe("code");
    expect(node).toMatchObject({ lang: "javascript", value: "const x = 1;" });
  });

  it("parses links", () => {
    const node = firstInline(parseMarkdown("[text](https://example.com)"));
    expect(node.type).toBe("link");
    expect(node).toMatchObject({ url: "https://example.com" });
  });

  it("parses blockquotes", () => {
    expect(parseMarkdown("> quoted text").children[0]?.type).toBe("blockquote");
  });

  it("parses unordered lists", () => {
    const node = parseMarkdown("- item 1\n- item 2").children[0];
    expect(node?.type).toBe("list");
    expect(node).toMatchObject({ ordered: false });
  });

  it("parses ordered lists", () => {
    const node = parseMarkdown("1. first\n2. second").children[0];
    expect(node?.type).toBe("list");
    expect(node).toMatchObject({ ordered: true });
  });

  it("handles nested formatting", () => {
    const node = firstInline(parseMarkdown("**_bold italic_**"));
    expect(node.type).toBe("strong");
    expect(getNodeChildren(node)[0]?.type).toBe("emphasis");
  });

  it("handles empty string", () => {
    const ast = parseMarkdown("");
    expect(ast.type).toBe("root");
    expect(ast.children).toHaveLength(0);
  });

  it("handles multiple paragraphs", () => {
    const ast = parseMarkdown("First paragraph.\n\nSecond paragraph.");
    expect(ast.children).toHaveLength(2);
    expect(ast.children[0]?.type).toBe("paragraph");
    expect(ast.children[1]?.type).toBe("paragraph");
  });
});

describe("stringifyMarkdown", () => {
  it("stringifies a simple AST", () => {
    expect(stringifyMarkdown(root([paragraph([text("Hello")])])).trim()).toBe("Hello");
  });

  it("stringifies bold text", () => {
    const ast = root([paragraph([strong([text("bold")])])]);
    expect(stringifyMarkdown(ast).trim()).toBe("**bold**");
  });

  it("stringifies italic text", () => {
    const ast = root([paragraph([emphasis([text("italic")])])]);
    expect(stringifyMarkdown(ast).trim()).toBe("*italic*");
  });

  it("stringifies inline code", () => {
    const ast = root([paragraph([inlineCode("code")])]);
    expect(stringifyMarkdown(ast).trim()).toBe("`code`");
  });

  it("stringifies links", () => {
    const ast = root([paragraph([link("https://example.com", [text("link")])])]);
    expect(stringifyMarkdown(ast).trim()).toBe("[link](https://example.com)");
  });

  it("round-trips markdown correctly", () => {
    const ast = parseMarkdown("**bold** and _italic_ and `code`");
    const reparsed = parseMarkdown(stringifyMarkdown(ast));
    expect(reparsed.children.length).toBe(ast.children.length);
  });
});

describe("toPlainText", () => {
  it("extracts plain text from AST", () => {
    expect(toPlainText(parseMarkdown("**bold** and _italic_"))).toBe("bold and italic");
  });

  it("extracts text from code blocks", () => {
    expect(toPlainText(parseMarkdown("```\ncode block\n```"))).toBe("code block");
  });

  it("extracts text from links", () => {
    expect(toPlainText(parseMarkdown("[link text](https://example.com)"))).toBe("link text");
  });

  it("preserves soft line breaks as whitespace", () => {
    expect(toPlainText(parseMarkdown("@test-bot\nhi there"))).toMatch(BOT_MENTION_WITH_WHITESPACE);
  });

  it("preserves paragraph boundaries as whitespace", () => {
    expect(toPlainText(parseMarkdown("@test-bot\n\nhi there"))).toMatch(
      BOT_MENTION_WITH_WHITESPACE,
    );
  });

  it("separates list items with whitespace", () => {
    expect(toPlainText(parseMarkdown("- one\n- two"))).toMatch(/one\s+two/);
  });

  it("separates table cells and rows with structural whitespace", () => {
    const ast = parseMarkdown("| Name | Role |\n| --- | --- |\n| **Ada** Lovelace | Engineer |");
    expect(toPlainText(ast)).toBe("Name\tRole\nAda Lovelace\tEngineer");
  });

  it("keeps empty table cells so columns stay aligned", () => {
    const ast = parseMarkdown("| Name | Middle | Units |\n| --- | --- | --- |\n| Samsung |  | 3 |");
    expect(toPlainText(ast)).toBe("Name\tMiddle\tUnits\nSamsung\t\t3");
  });

  it("drops table rows with no content", () => {
    const ast = parseMarkdown("|  |  |\n| --- | --- |\n| Samsung | 3 |");
    expect(toPlainText(ast)).toBe("Samsung\t3");
  });

  it("handles empty AST", () => {
    expect(toPlainText(root([]))).toBe("");
  });
});

describe("markdownToPlainText", () => {
  it("converts markdown to plain text directly", () => {
    expect(markdownToPlainText("**bold** and _italic_")).toBe("bold and italic");
  });

  it("handles complex markdown", () => {
    const result = markdownToPlainText("# Heading\n\nParagraph with `code`.");
    expect(result).toContain("Heading");
    expect(result).toContain("Paragraph with code");
  });

  it("preserves whitespace after a newline-separated mention", () => {
    expect(markdownToPlainText("@test-bot\nhi there")).toMatch(BOT_MENTION_WITH_WHITESPACE);
  });

  it("preserves whitespace after a paragraph-separated mention", () => {
    expect(markdownToPlainText("@test-bot\n\nhi there")).toMatch(BOT_MENTION_WITH_WHITESPACE);
  });
});

describe("walkAst", () => {
  it("visits all nodes", () => {
    const visited: string[] = [];
    walkAst(parseMarkdown("**bold** and _italic_"), (node) => {
      visited.push(node.type);
      return node;
    });
    expect(visited).toContain("paragraph");
    expect(visited).toContain("strong");
    expect(visited).toContain("emphasis");
    expect(visited).toContain("text");
  });

  it("allows filtering nodes by returning null", () => {
    const filtered = walkAst(parseMarkdown("**bold** and _italic_"), (node) =>
      node.type === "strong" ? null : node,
    );
    const plainText = toPlainText(filtered);
    expect(plainText).not.toContain("bold");
    expect(plainText).toContain("italic");
  });

  it("allows transforming nodes", () => {
    const transformed = walkAst(root([paragraph([text("hello")])]), (node) =>
      node.type === "text" ? { ...node, value: node.value.toUpperCase() } : node,
    );
    expect(toPlainText(transformed)).toBe("HELLO");
  });

  it("handles deeply nested structures", () => {
    const types: string[] = [];
    walkAst(parseMarkdown("> **_nested_ text**"), (node) => {
      types.push(node.type);
      return node;
    });
    expect(types).toContain("blockquote");
    expect(types).toContain("strong");
    expect(types).toContain("emphasis");
  });

  it("handles empty AST", () => {
    const visited: string[] = [];
    walkAst(root([]), (node) => {
      visited.push(node.type);
      return node;
    });
    expect(visited).toHaveLength(0);
  });
});

describe("AST builder functions", () => {
  describe("text", () => {
    it("creates a text node", () => {
      const node = text("hello");
      expect(node.type).toBe("text");
      expect(node.value).toBe("hello");
    });

    it("handles empty string", () => {
      expect(text("").value).toBe("");
    });

    it("handles special characters", () => {
      expect(text('hello & world < > "').value).toBe('hello & world < > "');
    });
  });

  describe("strong", () => {
    it("creates a strong node", () => {
      const node = strong([text("bold")]);
      expect(node.type).toBe("strong");
      expect(node.children).toHaveLength(1);
    });

    it("handles nested content", () => {
      const node = strong([emphasis([text("bold italic")])]);
      expect(node.children[0]?.type).toBe("emphasis");
    });
  });

  describe("emphasis", () => {
    it("creates an emphasis node", () => {
      const node = emphasis([text("italic")]);
      expect(node.type).toBe("emphasis");
      expect(node.children).toHaveLength(1);
    });
  });

  describe("strikethrough", () => {
    it("creates a delete node", () => {
      const node = strikethrough([text("deleted")]);
      expect(node.type).toBe("delete");
      expect(node.children).toHaveLength(1);
    });
  });

  describe("inlineCode", () => {
    it("creates an inline code node", () => {
      const node = inlineCode("const x = 1");
      expect(node.type).toBe("inlineCode");
      expect(node.value).toBe("const x = 1");
    });
  });

  describe("codeBlock", () => {
    it("creates a code block node", () => {
      const node = codeBlock("function() {}", "javascript");
      expect(node.type).toBe("code");
      expect(node.value).toBe("function() {}");
      expect(node.lang).toBe("javascript");
    });

    it("handles missing language", () => {
      expect(codeBlock("plain code").lang).toBeUndefined();
    });
  });

  describe("link", () => {
    it("creates a link node", () => {
      const node = link("https://example.com", [text("Example")]);
      expect(node.type).toBe("link");
      expect(node.url).toBe("https://example.com");
      expect(node.children).toHaveLength(1);
    });

    it("handles title", () => {
      expect(link("https://example.com", [text("Example")], "Title").title).toBe("Title");
    });
  });

  describe("blockquote", () => {
    it("creates a blockquote node", () => {
      const node = blockquote([paragraph([text("quoted")])]);
      expect(node.type).toBe("blockquote");
      expect(node.children).toHaveLength(1);
    });
  });

  describe("paragraph", () => {
    it("creates a paragraph node", () => {
      const node = paragraph([text("content")]);
      expect(node.type).toBe("paragraph");
      expect(node.children).toHaveLength(1);
    });
  });

  describe("root", () => {
    it("creates a root node", () => {
      const node = root([paragraph([text("content")])]);
      expect(node.type).toBe("root");
      expect(node.children).toHaveLength(1);
    });

    it("handles empty children", () => {
      expect(root([]).children).toHaveLength(0);
    });
  });
});

describe("parseMarkdown (tables)", () => {
  it("parses GFM tables", () => {
    expect(parseMarkdown("| A | B |\n|---|---|\n| 1 | 2 |").children[0]?.type).toBe("table");
  });

  it("parses table with multiple rows", () => {
    const md = "| Name | Age |\n|------|-----|\n| Alice | 30 |\n| Bob | 25 |";
    const table = firstTable(parseMarkdown(md));
    expect(table.type).toBe("table");
    expect(table.children).toHaveLength(3); // header + 2 data rows
  });
});

describe("table type guards", () => {
  it("isTableNode identifies table nodes", () => {
    const tableNode = parseMarkdown("| A | B |\n|---|---|\n| 1 | 2 |").children[0] as Content;
    expect(isTableNode(tableNode)).toBe(true);
    expect(isTableNode({ type: "paragraph", children: [] })).toBe(false);
  });

  it("isTableRowNode identifies table row nodes", () => {
    const table = firstTable(parseMarkdown("| A | B |\n|---|---|\n| 1 | 2 |"));
    expect(isTableRowNode(table.children[0] as Content)).toBe(true);
  });

  it("isTableCellNode identifies table cell nodes", () => {
    const table = firstTable(parseMarkdown("| A | B |\n|---|---|\n| 1 | 2 |"));
    expect(isTableCellNode(table.children[0]?.children[0] as Content)).toBe(true);
  });
});

describe("tableToAscii", () => {
  it("renders a simple table", () => {
    const result = tableToAscii(firstTable(parseMarkdown("| A | B |\n|---|---|\n| 1 | 2 |")));
    expect(result).toContain("A");
    expect(result).toContain("B");
    expect(result).toContain("1");
    expect(result).toContain("2");
    expect(result).toContain("-|"); // the separator line
  });

  it("pads columns to equal width", () => {
    const md = "| Name | Age |\n|------|-----|\n| Alice | 30 |\n| Bob | 25 |";
    const lines = tableToAscii(firstTable(parseMarkdown(md))).split("\n");
    expect(lines[0]).toBe("Name  | Age");
    expect(lines[1]).toBe("------|----");
    expect(lines[2]).toBe("Alice | 30");
    expect(lines[3]).toBe("Bob   | 25");
  });

  it("handles empty table", () => {
    expect(tableToAscii({ type: "table", children: [] })).toBe("");
  });
});

describe("tableElementToAscii", () => {
  it("renders headers and rows", () => {
    const lines = tableElementToAscii(
      ["Name", "Age"],
      [
        ["Alice", "30"],
        ["Bob", "25"],
      ],
    ).split("\n");
    expect(lines).toHaveLength(4); // header + separator + 2 data rows
    expect(lines[0]).toContain("Name");
    expect(lines[0]).toContain("Age");
    expect(lines[1]).toContain("---");
    expect(lines[2]).toContain("Alice");
    expect(lines[3]).toContain("Bob");
  });

  it("pads columns correctly", () => {
    const lines = tableElementToAscii(
      ["Name", "Age", "Role"],
      [
        ["Alice", "30", "Engineer"],
        ["Bob", "25", "Designer"],
      ],
    ).split("\n");
    expect(lines[0]).toBe("Name  | Age | Role");
    expect(lines[2]).toBe("Alice | 30  | Engineer");
    expect(lines[3]).toBe("Bob   | 25  | Designer");
  });
});

describe("Type guards", () => {
  const hello: Content = { type: "text", value: "hello" };

  describe("isTextNode", () => {
    it("returns true for text nodes", () => {
      expect(isTextNode(hello)).toBe(true);
    });

    it("returns false for non-text nodes", () => {
      expect(isTextNode({ type: "paragraph", children: [] })).toBe(false);
    });
  });

  describe("isParagraphNode", () => {
    it("returns true for paragraph nodes", () => {
      expect(isParagraphNode({ type: "paragraph", children: [] })).toBe(true);
    });

    it("returns false for non-paragraph nodes", () => {
      expect(isParagraphNode(hello)).toBe(false);
    });
  });

  describe("isStrongNode", () => {
    it("returns true for strong nodes", () => {
      expect(isStrongNode({ type: "strong", children: [{ type: "text", value: "bold" }] })).toBe(
        true,
      );
    });

    it("returns false for non-strong nodes", () => {
      const node: Content = { type: "emphasis", children: [{ type: "text", value: "italic" }] };
      expect(isStrongNode(node)).toBe(false);
    });
  });

  describe("isEmphasisNode", () => {
    it("returns true for emphasis nodes", () => {
      const node: Content = { type: "emphasis", children: [{ type: "text", value: "italic" }] };
      expect(isEmphasisNode(node)).toBe(true);
    });

    it("returns false for non-emphasis nodes", () => {
      expect(isEmphasisNode(hello)).toBe(false);
    });
  });

  describe("isDeleteNode", () => {
    it("returns true for delete (strikethrough) nodes", () => {
      const node: Content = { type: "delete", children: [{ type: "text", value: "deleted" }] };
      expect(isDeleteNode(node)).toBe(true);
    });

    it("returns false for non-delete nodes", () => {
      expect(isDeleteNode(hello)).toBe(false);
    });
  });

  describe("isInlineCodeNode", () => {
    it("returns true for inline code nodes", () => {
      expect(isInlineCodeNode({ type: "inlineCode", value: "code" })).toBe(true);
    });

    it("returns false for non-inline-code nodes", () => {
      expect(isInlineCodeNode({ type: "code", value: "block code" })).toBe(false);
    });
  });

  describe("isCodeNode", () => {
    it("returns true for code block nodes", () => {
      expect(isCodeNode({ type: "code", value: "const x = 1" })).toBe(true);
    });

    it("returns false for inline code nodes", () => {
      expect(isCodeNode({ type: "inlineCode", value: "code" })).toBe(false);
    });
  });

  describe("isLinkNode", () => {
    it("returns true for link nodes", () => {
      const node: Content = {
        type: "link",
        url: "https://example.com",
        children: [{ type: "text", value: "link" }],
      };
      expect(isLinkNode(node)).toBe(true);
    });

    it("returns false for non-link nodes", () => {
      expect(isLinkNode(hello)).toBe(false);
    });
  });

  describe("isBlockquoteNode", () => {
    it("returns true for blockquote nodes", () => {
      const node: Content = {
        type: "blockquote",
        children: [{ type: "paragraph", children: [{ type: "text", value: "quoted" }] }],
      };
      expect(isBlockquoteNode(node)).toBe(true);
    });

    it("returns false for non-blockquote nodes", () => {
      expect(isBlockquoteNode(hello)).toBe(false);
    });
  });

  describe("isListNode", () => {
    it("returns true for list nodes", () => {
      const listNode = parseMarkdown("- item 1\n- item 2").children[0] as Content;
      expect(isListNode(listNode)).toBe(true);
    });

    it("returns false for non-list nodes", () => {
      expect(isListNode(hello)).toBe(false);
    });
  });

  describe("isListItemNode", () => {
    it("returns true for list item nodes", () => {
      const listNode = parseMarkdown("- item 1").children[0] as Content;
      expect(isListItemNode(getNodeChildren(listNode)[0] as Content)).toBe(true);
    });

    it("returns false for non-list-item nodes", () => {
      expect(isListItemNode(hello)).toBe(false);
    });
  });
});

describe("getNodeChildren", () => {
  it("returns children for paragraph node", () => {
    const children = getNodeChildren(paragraph([text("hello"), text(" world")]));
    expect(children).toHaveLength(2);
    expect(getNodeValue(children[0] as Content)).toBe("hello");
  });

  it("returns children for strong node", () => {
    expect(getNodeChildren(strong([text("bold")]))).toHaveLength(1);
  });

  it("returns empty array for text node (no children)", () => {
    expect(getNodeChildren(text("hello"))).toEqual([]);
  });

  it("returns empty array for inline code node (no children)", () => {
    expect(getNodeChildren(inlineCode("code"))).toEqual([]);
  });

  it("returns empty array for code block node (no children)", () => {
    expect(getNodeChildren(codeBlock("code", "js"))).toEqual([]);
  });

  it("returns children for blockquote node", () => {
    const children = getNodeChildren(blockquote([paragraph([text("quoted")])]));
    expect(children).toHaveLength(1);
    expect(children[0]?.type).toBe("paragraph");
  });

  it("returns children for emphasis node", () => {
    expect(getNodeChildren(emphasis([text("italic")]))).toHaveLength(1);
  });

  it("returns children for link node", () => {
    expect(getNodeChildren(link("https://example.com", [text("link")]))).toHaveLength(1);
  });
});

describe("getNodeValue", () => {
  it("returns value for text node", () => {
    expect(getNodeValue(text("hello"))).toBe("hello");
  });

  it("returns value for inline code node", () => {
    expect(getNodeValue(inlineCode("const x = 1"))).toBe("const x = 1");
  });

  it("returns value for code block node", () => {
    expect(getNodeValue(codeBlock("function() {}"))).toBe("function() {}");
  });

  it("returns empty string for paragraph node (no value)", () => {
    expect(getNodeValue(paragraph([text("hello")]))).toBe("");
  });

  it("returns empty string for strong node (no value)", () => {
    expect(getNodeValue(strong([text("bold")]))).toBe("");
  });

  it("returns empty string for emphasis node (no value)", () => {
    expect(getNodeValue(emphasis([text("italic")]))).toBe("");
  });

  it("returns empty string for blockquote (no value)", () => {
    expect(getNodeValue(blockquote([paragraph([text("quoted")])]))).toBe("");
  });

  it("returns value for text with empty string", () => {
    expect(getNodeValue(text(""))).toBe("");
  });
});

describe("parseMarkdown edge cases", () => {
  it("handles markdown with only whitespace", () => {
    const ast = parseMarkdown("   ");
    expect(ast.type).toBe("root");
    // Upstream allows either; remark gives no block for blank input, and Baton pins that.
    expect(ast.children).toHaveLength(0);
  });

  it("handles markdown with special characters", () => {
    const ast = parseMarkdown('Hello <world> & "quotes"');
    expect(ast.type).toBe("root");
    expect(toPlainText(ast)).toContain("Hello");
  });

  it("handles very long markdown input", () => {
    const ast = parseMarkdown("word ".repeat(1000));
    expect(ast.type).toBe("root");
    expect(ast.children.length).toBeGreaterThan(0);
  });

  it("handles markdown with mixed heading levels", () => {
    const ast = parseMarkdown("# H1\n## H2\n### H3");
    expect(ast.children).toHaveLength(3);
    expect(ast.children.map((child) => child.type)).toEqual(["heading", "heading", "heading"]);
  });

  it("handles markdown with thematic break (hr)", () => {
    const ast = parseMarkdown("before\n\n---\n\nafter");
    expect(ast.children.length).toBeGreaterThanOrEqual(3);
    expect(ast.children.map((child) => child.type)).toContain("thematicBreak");
  });
});

describe("parseMarkdown in Baton", () => {
  it("turns line endings inside inline code into spaces, as CommonMark reads a code span", () => {
    const ast = parseMarkdown("> `one\n> two`");
    const quoted = getNodeChildren(ast.children[0] as Content)[0] as Content;
    expect(getNodeChildren(quoted)[0]).toMatchObject({ type: "inlineCode", value: "one two" });
    expect(parseMarkdown(stringifyMarkdown(ast))).toMatchObject({
      children: [{ children: [{ children: [{ type: "inlineCode", value: "one two" }] }] }],
    });
  });
});
