import {
  BaseFormatConverter,
  type NodeRenderers,
  PLAIN_TEXT_RENDERERS,
  parseMarkdown,
} from "@baton/core";
import type { Root } from "mdast";

/**
 * WhatsApp's own formatting on top of the plain-text renderers: `*bold*`, `_italic_`,
 * `~strike~`, `` `code` `` and fenced blocks as ``` monospace. Headings become bold lines.
 */
const WHATSAPP_RENDERERS: NodeRenderers = {
  ...PLAIN_TEXT_RENDERERS,
  strong: (node, context) => `*${context.renderChildren(node)}*`,
  emphasis: (node, context) => `_${context.renderChildren(node)}_`,
  delete: (node, context) => `~${context.renderChildren(node)}~`,
  heading: (node, context) => `*${context.renderChildren(node)}*`,
  inlineCode: (node) => `\`${node.value}\``,
  code: (node) => `\`\`\`${node.value}\`\`\``,
};

/** Which of the two text dialects a message is rendered in. */
export type TwilioTextDialect = "sms" | "whatsapp";

/**
 * Markdown for SMS and WhatsApp. SMS shows text as typed, so formatting marks are dropped while
 * list bullets, link targets and tables (as monospace columns) survive; WhatsApp gets its own
 * marks. Inbound text is taken as typed: neither channel sends markup Twilio would resolve.
 */
export class TwilioFormatConverter extends BaseFormatConverter {
  constructor(private readonly dialect: TwilioTextDialect = "sms") {
    super();
  }

  fromAst(ast: Root): string {
    const renderers = this.dialect === "whatsapp" ? WHATSAPP_RENDERERS : PLAIN_TEXT_RENDERERS;
    return this.fromAstWithRenderers(ast, renderers);
  }

  toAst(platformText: string): Root {
    return parseMarkdown(platformText);
  }
}
