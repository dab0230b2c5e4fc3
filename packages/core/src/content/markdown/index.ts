export {
  blockquote,
  codeBlock,
  emphasis,
  inlineCode,
  link,
  paragraph,
  root,
  strikethrough,
  strong,
  text,
} from "./builders.js";
export {
  BaseFormatConverter,
  type FormatConverter,
  type MarkdownConverter,
  type RenderablePostable,
} from "./format-converter.js";
export {
  getNodeChildren,
  getNodeValue,
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
} from "./guards.js";
export { parseMarkdown, stringifyMarkdown } from "./parse.js";
export { markdownToPlainText, toPlainText } from "./plain-text.js";
export { PLAIN_TEXT_RENDERERS, PlainTextConverter } from "./plain-text-converter.js";
export {
  type NodeRenderer,
  type NodeRenderers,
  type RenderContext,
  renderAst,
} from "./render-ast.js";
export { tableElementToAscii, tableToAscii } from "./table-to-ascii.js";
export { type AstVisitor, walkAst } from "./walk-ast.js";
