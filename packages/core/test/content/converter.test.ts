/**
 * The converter contract: upstream `chat`'s BaseFormatConverter block of markdown.test.ts (ported
 * with its titles, inputs and assertions), then Baton's shared tree walker (`renderAst`) and the
 * plain-text converter built on it.
 */
import type { Root } from "mdast";
import { describe, expect, it } from "vitest";
import {
  Actions,
  BaseFormatConverter,
  Button,
  Card,
  Text as CardText,
  convertEmojiPlaceholders,
  Divider,
  emoji,
  Field,
  Fields,
  markdownToPlainText,
  type NodeRenderers,
  PLAIN_TEXT_RENDERERS,
  PlainTextConverter,
  paragraph,
  parseMarkdown,
  renderAst,
  root,
  Section,
  stringifyMarkdown,
  strong,
  Table,
  text,
  toPlainText,
} from "../../src/content/index.js";
import { ValidationError } from "../../src/errors/index.js";

describe("BaseFormatConverter", () => {
  class TestConverter extends BaseFormatConverter {
    fromAst(ast: Root): string {
      return toPlainText(ast);
    }

    toAst(platformText: string): Root {
      return parseMarkdown(platformText);
    }
  }

  const converter = new TestConverter();

  describe("extractPlainText", () => {
    it("extracts plain text from platform format", () => {
      expect(converter.extractPlainText("**bold** text")).toBe("bold text");
    });
  });

  describe("fromMarkdown", () => {
    it("converts markdown to platform format", () => {
      expect(converter.fromMarkdown("**bold**")).toBe("bold");
    });
  });

  describe("toMarkdown", () => {
    it("converts platform format to markdown", () => {
      expect(converter.toMarkdown("plain text").trim()).toBe("plain text");
    });
  });

  describe("renderPostable", () => {
    it("handles string input", () => {
      expect(converter.renderPostable("plain string")).toBe("plain string");
    });

    it("handles raw message", () => {
      expect(converter.renderPostable({ raw: "raw text" })).toBe("raw text");
    });

    it("handles markdown message", () => {
      expect(converter.renderPostable({ markdown: "**bold**" })).toBe("bold");
    });

    it("handles AST message", () => {
      const ast = root([paragraph([text("from ast")])]);
      expect(converter.renderPostable({ ast })).toBe("from ast");
    });

    it("handles card with fallback text", () => {
      const card = Card({ title: "Title", children: [CardText("Content")] });
      expect(converter.renderPostable({ card, fallbackText: "Custom fallback" })).toBe(
        "Custom fallback",
      );
    });

    it("generates fallback text from card", () => {
      const card = Card({
        title: "Order Status",
        subtitle: "Your order details",
        children: [CardText("Processing your order...")],
      });
      const result = converter.renderPostable({ card });
      expect(result).toContain("Order Status");
      expect(result).toContain("Your order details");
      expect(result).toContain("Processing your order...");
    });

    it("handles card with actions", () => {
      const card = Card({
        title: "Confirm",
        children: [
          Actions([Button({ id: "yes", label: "Yes" }), Button({ id: "no", label: "No" })]),
        ],
      });
      const result = converter.renderPostable({ card });
      expect(result).toContain("Confirm");
      // Controls are left out of notification text: they cannot be clicked there.
      expect(result).not.toContain("[Yes]");
      expect(result).not.toContain("[No]");
    });

    it("handles card with fields", () => {
      const card = Card({
        children: [
          Fields([
            Field({ label: "Name", value: "John" }),
            Field({ label: "Email", value: "john@example.com" }),
          ]),
        ],
      });
      const result = converter.renderPostable({ card });
      expect(result).toContain("**Name**: John");
      expect(result).toContain("**Email**: john@example.com");
    });

    it("handles direct CardElement", () => {
      expect(converter.renderPostable(Card({ title: "Direct Card" }))).toContain("Direct Card");
    });

    it("throws on invalid input", () => {
      // @ts-expect-error an object that is no postable message
      expect(() => converter.renderPostable({ invalid: true })).toThrow(ValidationError);
    });

    it("handles card with table element", () => {
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
      const result = converter.renderPostable({ card });
      expect(result).toContain("Name");
      expect(result).toContain("Age");
      expect(result).toContain("Alice");
      expect(result).toContain("30");
    });
  });

  describe("deprecated toPlainText method", () => {
    it("extracts plain text from platform format", () => {
      expect(converter.toPlainText("**bold** text")).toBe("bold text");
    });
  });

  describe("fromAstWithNodeConverter", () => {
    class NodeConverterTestConverter extends BaseFormatConverter {
      fromAst(ast: Root): string {
        return this.fromAstWithNodeConverter(ast, (node) =>
          node.type === "paragraph"
            ? `[para:${toPlainText(root([node]))}]`
            : toPlainText(root([node])),
        );
      }

      toAst(inputText: string): Root {
        return parseMarkdown(inputText);
      }
    }

    const nodeConverter = new NodeConverterTestConverter();

    it("joins multiple paragraphs with double newlines", () => {
      const ast = root([paragraph([text("First")]), paragraph([text("Second")])]);
      expect(nodeConverter.fromAst(ast)).toBe("[para:First]\n\n[para:Second]");
    });

    it("handles single paragraph", () => {
      expect(nodeConverter.fromAst(root([paragraph([text("Only")])]))).toBe("[para:Only]");
    });

    it("handles empty AST", () => {
      expect(nodeConverter.fromAst(root([]))).toBe("");
    });
  });

  describe("cardToFallbackText via renderPostable", () => {
    it("handles card with section children", () => {
      const card = Card({
        children: [Section([CardText("Section content"), CardText("More content")])],
      });
      const result = converter.renderPostable({ card });
      expect(result).toContain("Section content");
      expect(result).toContain("More content");
    });

    it("handles card with only title (no children)", () => {
      expect(converter.renderPostable({ card: Card({ title: "Title Only" }) })).toBe(
        "**Title Only**",
      );
    });

    it("handles card with divider child (returns null for divider)", () => {
      const card = Card({ title: "With Divider", children: [Divider()] });
      expect(converter.renderPostable({ card })).toBe("**With Divider**");
    });

    it("handles card with mixed children including actions (excluded)", () => {
      const card = Card({
        title: "Mixed",
        children: [
          CardText("Visible text"),
          Actions([Button({ id: "ok", label: "OK" })]),
          Fields([Field({ label: "Key", value: "Val" })]),
        ],
      });
      const result = converter.renderPostable({ card });
      expect(result).toContain("Visible text");
      expect(result).not.toContain("OK");
      expect(result).toContain("**Key**: Val");
    });
  });

  // Upstream has a second describe of this name, on the plain TestConverter.
  describe("fromAstWithNodeConverter", () => {
    it("joins multiple paragraphs with double newlines", () => {
      const ast = root([
        paragraph([text("First")]),
        paragraph([text("Second")]),
        paragraph([text("Third")]),
      ]);
      const result = converter.fromAst(ast);
      expect(result).toContain("First");
      expect(result).toContain("Second");
      expect(result).toContain("Third");
    });
  });
});

/** A Slack-like converter written the way an adapter writes one: only its own renderers. */
const MRKDWN: NodeRenderers = {
  strong: (node, context) => `*${context.renderChildren(node)}*`,
  emphasis: (node, context) => `_${context.renderChildren(node)}_`,
  link: (node, context) => `<${node.url}|${context.renderChildren(node)}>`,
  paragraph: (node, context) => context.renderChildren(node),
};

describe("renderAst (the shared tree walker)", () => {
  it("renders each node with its type's renderer, nested renderers included", () => {
    const ast = parseMarkdown("**bold _and italic_** see [docs](https://example.com)");
    expect(renderAst(ast, MRKDWN)).toBe("*bold _and italic_* see <https://example.com|docs>");
  });

  it("falls back to the plain text of a node type without a renderer", () => {
    const ast = parseMarkdown("~~gone~~ and `code` in **bold ~~x~~**");
    expect(renderAst(ast, MRKDWN)).toBe("gone and code in *bold x*");
  });

  it("joins top-level blocks by a blank line when root has no renderer", () => {
    const ast = parseMarkdown("# Title\n\none\n\n---\n\ntwo");
    expect(renderAst(ast, MRKDWN)).toBe("Title\n\none\n\ntwo");
  });

  it("renders a table without a renderer as tab-separated plain text", () => {
    const ast = parseMarkdown("| A | B |\n|---|---|\n| **1** | 2 |");
    expect(renderAst(ast, MRKDWN)).toBe("A\tB\n1\t2");
  });

  it("gives each renderer the ancestors of its node", () => {
    const seen: string[][] = [];
    renderAst(parseMarkdown("> - **deep**"), {
      strong: (node, context) => {
        seen.push(context.ancestors.map((ancestor) => ancestor.type));
        return context.renderChildren(node);
      },
      blockquote: (node, context) => context.renderChildren(node),
      list: (node, context) => context.renderChildren(node),
      listItem: (node, context) => context.renderChildren(node),
      paragraph: (node, context) => context.renderChildren(node),
    });
    expect(seen).toEqual([["root", "blockquote", "list", "listItem", "paragraph"]]);
  });

  it("lets an adapter spread its renderers over the plain-text ones", () => {
    const ast = parseMarkdown("- **one**\n- [two](https://example.com)\n\n> _quoted_");
    const renderers: NodeRenderers = { ...PLAIN_TEXT_RENDERERS, ...MRKDWN };
    expect(renderAst(ast, renderers)).toBe("- *one*\n- <https://example.com|two>\n\n> _quoted_");
  });

  it("does not modify the tree it renders", () => {
    const ast = parseMarkdown("**a** [b](https://example.com)");
    const before = structuredClone(ast);
    renderAst(ast, MRKDWN);
    expect(ast).toEqual(before);
  });
});

describe("PlainTextConverter", () => {
  const plain = new PlainTextConverter();

  it("drops formatting marks but keeps list markers, quotes and link targets", () => {
    const markdown = [
      "# Release **2.0**",
      "- one\n- _two_\n  1. nested",
      "3. three\n4. four",
      "> quoted\n> lines",
      "See [the notes](https://example.com/notes) or <https://example.com>.",
      "- [x] done\n- [ ] open",
    ].join("\n\n");
    expect(plain.fromMarkdown(markdown)).toBe(
      [
        "Release 2.0",
        "- one\n- two\n  1. nested",
        "3. three\n4. four",
        "> quoted\n> lines",
        "See the notes (https://example.com/notes) or https://example.com.",
        "- [x] done\n- [ ] open",
      ].join("\n\n"),
    );
  });

  it("writes tables as padded monospace columns and code as it is", () => {
    const markdown = "| Name | Age |\n|---|---|\n| Alice | 30 |\n\n```ts\nconst x = 1;\n```";
    expect(plain.fromMarkdown(markdown)).toBe(
      "Name  | Age\n------|----\nAlice | 30\n\nconst x = 1;",
    );
  });

  it("writes a thematic break as a line of dashes", () => {
    expect(plain.fromMarkdown("above\n\n---\n\nbelow")).toBe("above\n\n---\n\nbelow");
  });

  it("reads inbound text literally: markdown characters are not formatting", () => {
    const ast = plain.toAst("2 * 3 = 6, *not* bold\n\nsecond   \n  block");
    expect(ast).toEqual(
      root([paragraph([text("2 * 3 = 6, *not* bold")]), paragraph([text("second   \n  block")])]),
    );
    expect(plain.extractPlainText("a *b*")).toBe("a *b*");
  });

  it("renders a card as its fallback text, without markdown marks, through renderPostable", () => {
    const card = Card({
      title: "Deploy",
      children: [CardText("Ready"), Divider(), Fields([Field({ label: "Env", value: "prod" })])],
    });
    expect(plain.renderPostable(card)).toBe("Deploy\nReady\nEnv: prod");
    expect(plain.renderPostable({ card, fallbackText: "as given" })).toBe("as given");
  });
});

describe("the examples of docs/formatting.md", () => {
  it("renders the mrkdwn converter example as documented", () => {
    class MrkdwnConverter extends BaseFormatConverter {
      fromAst(ast: Root): string {
        return this.fromAstWithRenderers(ast, MRKDWN);
      }
      toAst(platformText: string): Root {
        return parseMarkdown(platformText);
      }
    }
    expect(
      new MrkdwnConverter().fromMarkdown("**Done**, see [the log](https://example.com) ~~now~~"),
    ).toBe("*Done*, see <https://example.com|the log> now");
  });

  it("stringifies the built tree and converts the emoji as documented", () => {
    const ast = root([paragraph([text("Deploy "), strong([text("done")])])]);
    expect(stringifyMarkdown(ast)).toBe("Deploy **done**\n");
    const message = `Shipped ${emoji.rocket} thanks ${emoji.thumbs_up}`;
    expect(convertEmojiPlaceholders(message, "slack")).toBe("Shipped :rocket: thanks :+1:");
    expect(convertEmojiPlaceholders(message, "telegram")).toBe("Shipped 🚀 thanks 👍");
  });

  it("gives the outputs the core README's example shows", () => {
    const ast = parseMarkdown("**Ready**: see [the log](https://example.com)\n\n- one\n- two");
    expect(stringifyMarkdown(ast)).toBe(
      "**Ready**: see [the log](https://example.com)\n\n* one\n* two\n",
    );
    expect(markdownToPlainText("**Ready**\n\nnow")).toBe("Ready\n\nnow");
    expect(new PlainTextConverter().fromAst(ast)).toBe(
      "Ready: see the log (https://example.com)\n\n- one\n- two",
    );
  });
});
