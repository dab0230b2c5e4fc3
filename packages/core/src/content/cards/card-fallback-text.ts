import { tableElementToAscii } from "../markdown/table-to-ascii.js";
import type { ActionsChild, CardChild, CardElement, ChartElement } from "./card-types.js";

/** How {@link cardToFallbackText} writes a card's buttons and selects. */
export interface FallbackTextOptions {
  /**
   * `"labels"` (default): each control as `[label]`, a link button as `[label] (url)`, a select
   * as `label: option / option`, one Actions row per line — a text-only platform shows what the
   * bot offers. `"omit"`: no controls, as upstream `chat` writes notification text.
   */
  actions?: "labels" | "omit";
}

/**
 * A card as text for platforms and clients that cannot draw cards: the title in `**bold**`, the
 * subtitle, then each child on its own line(s) — text as is, links as `label (url)`, fields as
 * `label: value`, sections flattened, tables and charts as monospace tables, controls per
 * `options.actions`. Images and dividers are left out. The same card always gives the same text.
 */
export function cardToFallbackText(card: CardElement, options: FallbackTextOptions = {}): string {
  const parts: string[] = [];
  if (card.title) parts.push(`**${card.title}**`);
  if (card.subtitle) parts.push(card.subtitle);
  for (const child of card.children) {
    const text = childText(child, options);
    if (text) parts.push(text);
  }
  return parts.join("\n");
}

/**
 * One card child as text, or `null` for a child that has none (an image, a divider, and — as in
 * upstream, where this function exists for adapters' unknown types — an Actions row).
 */
export function cardChildToFallbackText(child: CardChild): string | null {
  return childText(child, { actions: "omit" });
}

function childText(child: CardChild, options: FallbackTextOptions): string | null {
  switch (child.type) {
    case "text":
      return child.content;
    case "link":
      return `${child.label} (${child.url})`;
    case "fields":
      return child.children.map((field) => `${field.label}: ${field.value}`).join("\n");
    case "actions":
      return options.actions === "omit" ? null : actionsText(child.children);
    case "table":
      return tableElementToAscii(child.headers, child.rows);
    case "chart":
      return chartText(child);
    case "section": {
      const lines = child.children.map((nested) => childText(nested, options)).filter(Boolean);
      return lines.length > 0 ? lines.join("\n") : null;
    }
    default:
      return null;
  }
}

function actionsText(controls: readonly ActionsChild[]): string | null {
  const pieces = controls.map((control) => {
    switch (control.type) {
      case "button":
        return `[${control.label}]`;
      case "link-button":
        return `[${control.label}] (${control.url})`;
      case "select":
      case "radio_select":
        return `${control.label}: ${control.options.map((option) => option.label).join(" / ")}`;
      default:
        return "";
    }
  });
  const line = pieces.filter((piece) => piece.length > 0).join(" ");
  return line.length > 0 ? line : null;
}

/** A chart as its title over a table of its numbers: one row per segment or category. */
function chartText(element: ChartElement): string {
  const { chart } = element;
  if (chart.type === "pie") {
    const rows = chart.segments.map((segment) => [segment.label, String(segment.value)]);
    return `${element.title}\n${tableElementToAscii(["Label", "Value"], rows)}`;
  }
  // Values are looked up by category, so a series may list its points in any order.
  const rows = chart.categories.map((category) => [
    category,
    ...chart.series.map((series) => {
      const point = series.data.find((datum) => datum.label === category);
      return point === undefined ? "" : String(point.value);
    }),
  ]);
  const headers = [chart.xLabel ?? "", ...chart.series.map((series) => series.name)];
  const axis = chart.yLabel ? ` (${chart.yLabel})` : "";
  return `${element.title}${axis}\n${tableElementToAscii(headers, rows)}`;
}
