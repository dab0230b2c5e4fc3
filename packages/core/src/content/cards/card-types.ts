import type { RadioSelectElement, SelectElement } from "../modals/modal-types.js";

/**
 * The card model: plain, JSON-serializable data tagged by `type`, with upstream `chat`'s tags
 * and field names, so a card built for `chat` is a card here. Adapters render these trees; a
 * platform without cards posts `cardToFallbackText(card)` instead.
 */

/** How a button is drawn. */
export type ButtonStyle = "primary" | "danger" | "default";

/** How a text block is drawn. */
export type TextStyle = "plain" | "bold" | "muted";

/** Width hint for platforms that can draw a card wider than usual (Teams). */
export type CardWidth = "default" | "full";

/** A button that sends an action (or opens a modal) when clicked. */
export interface ButtonElement {
  type: "button";
  /** Action id, routed to `onAction` handlers; unique among the card's controls. */
  id: string;
  /** Label shown on the button; never empty. */
  label: string;
  style?: ButtonStyle;
  /** Payload sent with the action. */
  value?: string;
  /** Drawn inactive and sends nothing. */
  disabled?: boolean;
  /** `"modal"`: the click opens a modal where the platform needs that declared up front (Teams). */
  actionType?: "action" | "modal";
  /** URL that receives the action instead of the bot's webhook. */
  callbackUrl?: string;
  /** Hover text (Teams only). */
  tooltip?: string;
  /** User ids that see the button (Slack only; hides it, does not restrict who may act). */
  visibleTo?: string[];
}

/** A button that opens a URL. */
export interface LinkButtonElement {
  type: "link-button";
  /** Absolute URL opened on click. */
  url: string;
  /** Label shown on the button; never empty. */
  label: string;
  /** Action id reported by platforms that report link clicks. */
  id?: string;
  style?: ButtonStyle;
  tooltip?: string;
  visibleTo?: string[];
}

/** A block of text (markdown on platforms that render it). */
export interface TextElement {
  type: "text";
  content: string;
  style?: TextStyle;
}

/** An image. */
export interface ImageElement {
  type: "image";
  /** Absolute URL of the image. */
  url: string;
  alt?: string;
}

/** A horizontal separator. */
export interface DividerElement {
  type: "divider";
}

/** The controls a row of actions may hold. */
export type ActionsChild = ButtonElement | LinkButtonElement | SelectElement | RadioSelectElement;

/** A row of buttons and selects. */
export interface ActionsElement {
  type: "actions";
  children: ActionsChild[];
}

/** A group of card children. */
export interface SectionElement {
  type: "section";
  children: CardChild[];
}

/** An inline hyperlink. */
export interface LinkElement {
  type: "link";
  /** Absolute URL. */
  url: string;
  label: string;
}

/** A label and its value. */
export interface FieldElement {
  type: "field";
  label: string;
  value: string;
}

/** Label/value pairs laid out in columns. */
export interface FieldsElement {
  type: "fields";
  children: FieldElement[];
}

/** Horizontal alignment of a table column. */
export type TableAlignment = "left" | "center" | "right";

/** Vertical alignment of table cells (Teams only). */
export type TableVerticalAlignment = "top" | "center" | "bottom";

/** Style of a table's grid lines (Teams only). */
export type TableGridStyle = "default" | "emphasis" | "accent" | "good" | "attention" | "warning";

/** What `Table` takes; the element carries the same fields. */
export interface TableOptions {
  /** Column headers; at least one. */
  headers: string[];
  /** Data rows; each has exactly one cell per header. */
  rows: string[][];
  /** One alignment per column (at most as many as headers). */
  align?: TableAlignment[];
  /** Accessible caption, for platforms with native tables. */
  caption?: string;
  /** Rows per page where tables paginate (Slack); a positive integer. */
  pageSize?: number;
  /** Relative column widths, one positive integer per column (Teams only). */
  widths?: number[];
  verticalAlign?: TableVerticalAlignment;
  /** Draw grid lines (Teams only; default true). */
  gridLines?: boolean;
  gridStyle?: TableGridStyle;
}

/** A table of strings. */
export interface TableElement extends TableOptions {
  type: "table";
}

/** One slice of a pie chart. */
export interface ChartSegment {
  label: string;
  /** Drawn as its share of the total. */
  value: number;
}

/** One point of a chart series. */
export interface ChartDataPoint {
  /** A category of the chart. */
  label: string;
  value: number;
}

/** A named series of a bar, area or line chart. */
export interface ChartSeries {
  name: string;
  data: ChartDataPoint[];
}

/** A pie chart. */
export interface PieChartDefinition {
  type: "pie";
  segments: ChartSegment[];
}

/** A bar, area or line chart over named categories. */
export interface SeriesChartDefinition {
  type: "area" | "bar" | "line";
  /** X-axis categories, in display order. */
  categories: string[];
  series: ChartSeries[];
  xLabel?: string;
  yLabel?: string;
}

/** A chart's data, by chart type. */
export type ChartDefinition = PieChartDefinition | SeriesChartDefinition;

/** A chart. Platform limits (label lengths, segment counts) are the adapters' to enforce. */
export interface ChartElement {
  type: "chart";
  title: string;
  chart: ChartDefinition;
}

/** What a card (or a section) may hold directly. */
export type CardChild =
  | TextElement
  | ImageElement
  | DividerElement
  | ActionsElement
  | SectionElement
  | FieldsElement
  | LinkElement
  | TableElement
  | ChartElement;

/** The root of a card. */
export interface CardElement {
  type: "card";
  children: CardChild[];
  title?: string;
  subtitle?: string;
  /** Absolute URL of a header image. */
  imageUrl?: string;
  width?: CardWidth;
}

/** Any element of a card tree, root and nested controls included. */
export type AnyCardElement =
  | CardElement
  | CardChild
  | ButtonElement
  | LinkButtonElement
  | FieldElement
  | SelectElement
  | RadioSelectElement;

/** The `type` tags a card or section child may carry. */
export const CARD_CHILD_TYPES: readonly CardChild["type"][] = [
  "text",
  "image",
  "divider",
  "actions",
  "section",
  "fields",
  "link",
  "table",
  "chart",
];

/** The `type` tags an Actions row may hold. */
export const ACTIONS_CHILD_TYPES: readonly ActionsChild["type"][] = [
  "button",
  "link-button",
  "select",
  "radio_select",
];

/** True for a card root (`type: "card"`); says nothing about the rest of the tree. */
export function isCardElement(value: unknown): value is CardElement {
  return (
    typeof value === "object" && value !== null && (value as { type?: unknown }).type === "card"
  );
}
