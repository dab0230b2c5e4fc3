import type { Nodes, Parents } from "mdast";
import { toPlainText } from "./plain-text.js";

/** What a {@link NodeRenderer} gets besides its node: a way to render the rest of the tree. */
export interface RenderContext {
  /** Renders `node` with the same renderers (for a child a renderer handles itself). */
  render(node: Nodes): string;
  /** Renders every child of `node` with the same renderers, joined by `separator` (default `""`). */
  renderChildren(node: Nodes, separator?: string): string;
  /** The ancestors of the node being rendered, the root first and the parent last. */
  readonly ancestors: readonly Parents[];
}

/** Renders one mdast node of type `T` to a platform's text. */
export type NodeRenderer<T extends Nodes = Nodes> = (node: T, context: RenderContext) => string;

/**
 * One renderer per mdast node type a platform formats (`strong`, `link`, `table`, …). A type
 * without a renderer falls back to its plain text ({@link toPlainText}), so a renderer set is never
 * incomplete, only plainer; `root` without a renderer joins its rendered blocks by a blank line.
 */
export type NodeRenderers = {
  readonly [K in Nodes["type"]]?: NodeRenderer<Extract<Nodes, { type: K }>>;
};

/**
 * Renders `node` and its subtree with `renderers`: the shared tree walker behind every converter,
 * so an adapter writes only the renderers of the nodes its platform formats. Pure: the tree is
 * not modified.
 */
export function renderAst(node: Nodes, renderers: NodeRenderers): string {
  return renderNode(node, [], renderers);
}

function renderNode(node: Nodes, ancestors: readonly Parents[], renderers: NodeRenderers): string {
  const renderer = renderers[node.type] as NodeRenderer | undefined;
  if (renderer !== undefined) return renderer(node, contextFor(node, ancestors, renderers));
  if (node.type === "root") {
    // Blocks that render to nothing (a thematic break in plain text) leave no blank lines behind.
    return renderEach(node, [node], renderers)
      .filter((block) => block !== "")
      .join("\n\n");
  }
  return toPlainText(node);
}

function renderEach(
  parent: Nodes,
  ancestors: readonly Parents[],
  renderers: NodeRenderers,
): string[] {
  if (!("children" in parent)) return [];
  return parent.children.map((child) => renderNode(child, ancestors, renderers));
}

function contextFor(
  node: Nodes,
  ancestors: readonly Parents[],
  renderers: NodeRenderers,
): RenderContext {
  // Children of the current node see it as their parent; a deeper node passed in by a renderer
  // (a list item's paragraph, say) also gets its own parent appended.
  const below = (parent: Nodes): readonly Parents[] => {
    const withNode = "children" in node ? [...ancestors, node] : ancestors;
    return parent === node || !("children" in parent) ? withNode : [...withNode, parent];
  };
  return {
    ancestors,
    render: (other) => renderNode(other, other === node ? ancestors : below(node), renderers),
    renderChildren: (parent, separator = "") =>
      renderEach(parent, below(parent), renderers).join(separator),
  };
}
