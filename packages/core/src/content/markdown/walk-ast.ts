import type { Nodes, RootContent } from "mdast";

/**
 * What {@link walkAst} calls for every descendant: returns the node to keep (the same one or a
 * replacement, whose own children are walked next) or `null` to drop it with its subtree.
 */
export type AstVisitor = (node: RootContent) => RootContent | null;

/**
 * Visits every descendant of `node` depth first, parents before children (never `node` itself),
 * and rewrites the tree in place as the visitor says. Returns `node`, as upstream does, so calls
 * chain. Copy the tree first (`structuredClone`) when the original must stay as it was, e.g. a
 * message's `formatted` tree shared with other handlers.
 */
export function walkAst<T extends Nodes>(node: T, visitor: AstVisitor): T {
  if (!("children" in node)) return node;
  const kept: RootContent[] = [];
  for (const child of node.children) {
    const result = visitor(child);
    if (result !== null) kept.push(walkAst(result, visitor));
  }
  // The visitor may return any node kind; a parent's children type cannot track that.
  (node as { children: RootContent[] }).children = kept;
  return node;
}
