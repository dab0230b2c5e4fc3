import type { Root, RootContent } from "mdast";
import { ValidationError } from "../../errors/index.js";
import { cardChildToFallbackText } from "../cards/card-fallback-text.js";
import { type CardChild, type CardElement, isCardElement } from "../cards/card-types.js";
import { parseMarkdown, stringifyMarkdown } from "./parse.js";
import { toPlainText } from "./plain-text.js";
import { type NodeRenderers, renderAst } from "./render-ast.js";

/** A card as a postable message carries it: any object tagged `type: "card"`. */
interface CardLike {
  readonly type: "card";
}

/**
 * What {@link BaseFormatConverter.renderPostable} renders: the postable forms that are text or
 * become text, shaped so the adapter contract's `AdapterPostableMessage` is one. `string` and
 * `{ raw }` are sent as they are; `{ markdown }` and `{ ast }` are rendered; a card (bare or
 * `{ card, fallbackText }`) becomes its text fallback here, since a platform with cards draws them
 * itself before it asks a converter.
 */
export type RenderablePostable =
  | string
  | { raw: string }
  | { markdown: string }
  | { ast: Root }
  | { card: CardLike; fallbackText?: string }
  | CardLike;

/**
 * The converter contract every platform adapter implements. The mdast tree is the canonical
 * form: platform text ⇄ tree ⇄ markdown. `fromAst` is the outbound half (what the issue calls
 * `toPlatform`), `toAst` the inbound half (`fromPlatform`).
 */
export interface FormatConverter {
  /**
   * The platform's text for `ast`: what the adapter posts. Pure and total: every node renders
   * (nodes the platform cannot format as their plain text), nothing throws.
   */
  fromAst(ast: Root): string;
  /** The tree of the platform's text `platformText`: what the adapter puts in `message.formatted`. */
  toAst(platformText: string): Root;
  /** The plain text of the platform's text (`toPlainText(toAst(platformText))` by default). */
  extractPlainText(platformText: string): string;
}

/** @deprecated Upstream's older name with markdown-string helpers; use {@link FormatConverter}. */
export interface MarkdownConverter extends FormatConverter {
  fromMarkdown(markdown: string): string;
  toMarkdown(platformText: string): string;
  toPlainText(platformText: string): string;
}

/**
 * A converter with everything but the two platform halves written: an adapter extends it and
 * implements `fromAst` (usually as `this.fromAstWithRenderers(ast, renderers)`, one renderer per
 * node type its platform formats) and `toAst`.
 */
export abstract class BaseFormatConverter implements MarkdownConverter {
  abstract fromAst(ast: Root): string;
  abstract toAst(platformText: string): Root;

  /**
   * Renders `ast` with the shared tree walker: each node through its renderer in `renderers`,
   * nodes without one as their plain text (see {@link renderAst}).
   */
  protected fromAstWithRenderers(ast: Root, renderers: NodeRenderers): string {
    return renderAst(ast, renderers);
  }

  /**
   * Renders each top-level block of `ast` with `nodeConverter` and joins them by a blank line
   * (upstream's simpler hook, kept for converters ported from `chat`).
   */
  protected fromAstWithNodeConverter(
    ast: Root,
    nodeConverter: (node: RootContent) => string,
  ): string {
    return ast.children.map(nodeConverter).join("\n\n");
  }

  extractPlainText(platformText: string): string {
    return toPlainText(this.toAst(platformText));
  }

  /** The platform's text for the markdown `markdown`. */
  fromMarkdown(markdown: string): string {
    return this.fromAst(parseMarkdown(markdown));
  }

  /** Markdown for the platform's text `platformText`. */
  toMarkdown(platformText: string): string {
    return stringifyMarkdown(this.toAst(platformText));
  }

  /** @deprecated Use {@link extractPlainText}. */
  toPlainText(platformText: string): string {
    return this.extractPlainText(platformText);
  }

  /**
   * The platform's text for a postable message (see {@link RenderablePostable}): strings and
   * `{ raw }` unchanged, `{ markdown }` and `{ ast }` rendered, cards as their fallback text (the
   * given `fallbackText` first). Throws a `ValidationError` for anything else.
   */
  renderPostable(message: RenderablePostable): string {
    if (typeof message === "string") return message;
    if (typeof message === "object" && message !== null) {
      if ("raw" in message) return message.raw;
      if ("markdown" in message) return this.fromMarkdown(message.markdown);
      if ("ast" in message) return this.fromAst(message.ast);
      // Cards are validated when built (content/cards), so a card-tagged object is a whole card.
      if ("card" in message) {
        return message.fallbackText || this.cardToFallbackText(message.card as CardElement);
      }
      if (isCardElement(message)) return this.cardToFallbackText(message);
    }
    throw new ValidationError(
      "message must be a string, { raw }, { markdown }, { ast }, { card } or a card element",
      { step: "render postable message" },
    );
  }

  /**
   * The text a card becomes where it is not drawn as a card, in markdown: the title in bold, the
   * subtitle, then each child's text on its own line. Override for a platform's own markup.
   */
  protected cardToFallbackText(card: CardElement): string {
    const parts = card.title ? [`**${card.title}**`] : [];
    if (card.subtitle) parts.push(card.subtitle);
    for (const child of card.children) {
      const childText = this.cardChildToFallbackText(child);
      if (childText) parts.push(childText);
    }
    return parts.join("\n");
  }

  /**
   * One card child's fallback text, or `null` for none. Controls are left out (a notification
   * cannot be clicked) and field labels are bold, as upstream's converters write them; the rest
   * is the card model's own fallback ({@link cardChildToFallbackText}).
   */
  protected cardChildToFallbackText(child: CardChild): string | null {
    switch (child.type) {
      case "fields":
        return child.children.map((field) => `**${field.label}**: ${field.value}`).join("\n");
      case "section": {
        const lines = child.children.map((nested) => this.cardChildToFallbackText(nested));
        const kept = lines.filter((line): line is string => Boolean(line));
        return kept.length > 0 ? kept.join("\n") : null;
      }
      default:
        return cardChildToFallbackText(child);
    }
  }
}
