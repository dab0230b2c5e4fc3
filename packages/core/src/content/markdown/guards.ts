import type {
  Blockquote,
  Code,
  Delete,
  Emphasis,
  InlineCode,
  Link,
  List,
  ListItem,
  Nodes,
  Paragraph,
  RootContent,
  Strong,
  Table,
  TableCell,
  TableRow,
  Text,
} from "mdast";

// Type guards over `type`, so converters narrow a node without casts.

/** Whether `node` is plain text. */
export function isTextNode(node: Nodes): node is Text {
  return node.type === "text";
}

/** Whether `node` is a paragraph. */
export function isParagraphNode(node: Nodes): node is Paragraph {
  return node.type === "paragraph";
}

/** Whether `node` is bold. */
export function isStrongNode(node: Nodes): node is Strong {
  return node.type === "strong";
}

/** Whether `node` is italic. */
export function isEmphasisNode(node: Nodes): node is Emphasis {
  return node.type === "emphasis";
}

/** Whether `node` is strikethrough (mdast `delete`). */
export function isDeleteNode(node: Nodes): node is Delete {
  return node.type === "delete";
}

/** Whether `node` is inline code (not a code block). */
export function isInlineCodeNode(node: Nodes): node is InlineCode {
  return node.type === "inlineCode";
}

/** Whether `node` is a code block (not inline code). */
export function isCodeNode(node: Nodes): node is Code {
  return node.type === "code";
}

/** Whether `node` is a link. */
export function isLinkNode(node: Nodes): node is Link {
  return node.type === "link";
}

/** Whether `node` is a block quote. */
export function isBlockquoteNode(node: Nodes): node is Blockquote {
  return node.type === "blockquote";
}

/** Whether `node` is a list, ordered or not. */
export function isListNode(node: Nodes): node is List {
  return node.type === "list";
}

/** Whether `node` is one item of a list. */
export function isListItemNode(node: Nodes): node is ListItem {
  return node.type === "listItem";
}

/** Whether `node` is a GFM table. */
export function isTableNode(node: Nodes): node is Table {
  return node.type === "table";
}

/** Whether `node` is a row of a GFM table. */
export function isTableRowNode(node: Nodes): node is TableRow {
  return node.type === "tableRow";
}

/** Whether `node` is a cell of a GFM table row. */
export function isTableCellNode(node: Nodes): node is TableCell {
  return node.type === "tableCell";
}

/** The children of `node`, or an empty array for a leaf (text, code, break, …). */
export function getNodeChildren(node: Nodes): RootContent[] {
  return "children" in node ? node.children : [];
}

/** The `value` of a leaf (text, inline code, code, html), or `""` for a node without one. */
export function getNodeValue(node: Nodes): string {
  return "value" in node ? node.value : "";
}
