import {
  type ActionsChild,
  type CardChild,
  type CardElement,
  cardChildToFallbackText,
  cardToFallbackText as coreCardToFallbackText,
  type RadioSelectElement,
  type SelectElement,
  type TableElement,
} from "@baton/core";
import {
  AdaptiveCard,
  type CardElement as AdaptiveElement,
  Choice,
  ChoiceSetInput,
  ColumnDefinition,
  Container,
  Fact,
  FactSet,
  Image,
  OpenUrlAction,
  SubmitAction,
  Table,
  TableCell,
  TableRow,
  TextBlock,
} from "@microsoft/teams.cards";
import { convertTeamsEmojiPlaceholders } from "./format-html.js";

/** The Adaptive Card schema Teams renders (1.4 is what every Teams client supports). */
export const ADAPTIVE_CARD_SCHEMA = "http://adaptivecards.io/schemas/adaptive-card.json";
export const ADAPTIVE_CARD_VERSION = "1.4";
/** The action id of the submit button added to a card whose selects have no button. */
export const AUTO_SUBMIT_ACTION_ID = "__auto_submit";
/** The attachment content type of an Adaptive Card. */
export const ADAPTIVE_CARD_CONTENT_TYPE = "application/vnd.microsoft.card.adaptive";

/** One element or action of a rendered card, as JSON. */
export type AdaptiveJson = Record<string, unknown> & { type: string; title?: string };

/** A rendered Adaptive Card, as the JSON Teams receives. */
export interface TeamsAdaptiveCard {
  type: "AdaptiveCard";
  $schema: string;
  version: string;
  body: AdaptiveJson[];
  actions?: AdaptiveJson[];
  msteams?: { width: "full" };
}

type AnyAction = SubmitAction | OpenUrlAction;

const BUTTON_STYLES = { primary: "positive", danger: "destructive" } as const;

function styleOf(style: string | undefined): "positive" | "destructive" | undefined {
  return style === "primary" || style === "danger" ? BUTTON_STYLES[style] : undefined;
}

function choiceSet(element: SelectElement | RadioSelectElement): ChoiceSetInput {
  const input = new ChoiceSetInput(
    ...element.options.map((option) => new Choice({ title: option.label, value: option.value })),
  )
    .withId(element.id)
    .withLabel(element.label)
    .withStyle(element.type === "select" ? "compact" : "expanded")
    .withIsRequired(element.optional !== true);
  if (element.type === "select" && element.placeholder !== undefined) {
    input.withPlaceholder(element.placeholder);
  }
  if (element.initialOption !== undefined) input.withValue(element.initialOption);
  return input;
}

function action(child: ActionsChild): AnyAction | undefined {
  if (child.type === "button") {
    const data: Record<string, unknown> = { actionId: child.id, value: child.value };
    // A modal button opens a Teams dialog: task/fetch reaches the bot as an invoke.
    if (child.actionType === "modal") data.msteams = { type: "task/fetch" };
    const submit = new SubmitAction({ title: child.label, data: data as never });
    const style = styleOf(child.style);
    if (style !== undefined) submit.withStyle(style);
    if (child.tooltip !== undefined) submit.withTooltip(child.tooltip);
    if (child.disabled === true) submit.withIsEnabled(false);
    return submit;
  }
  if (child.type === "link-button") {
    const open = new OpenUrlAction(child.url, { title: child.label });
    const style = styleOf(child.style);
    if (style !== undefined) open.withStyle(style);
    if (child.tooltip !== undefined) open.withTooltip(child.tooltip);
    return open;
  }
  return undefined;
}

function table(element: TableElement): Table {
  const row = (cells: readonly string[]) =>
    new TableRow({
      cells: cells.map((text) => new TableCell(new TextBlock(text, { wrap: true }))),
    });
  return new Table({
    columns: element.headers.map(() => new ColumnDefinition({ width: 1 })),
    rows: [row(element.headers), ...element.rows.map(row)],
    firstRowAsHeaders: true,
  });
}

interface Rendered {
  readonly body: AdaptiveElement[];
  readonly actions: AnyAction[];
}

/** The Submit button of an actions block whose selects have no submit button of their own. */
function autoSubmit(): SubmitAction {
  return new SubmitAction({ title: "Submit", data: { actionId: AUTO_SUBMIT_ACTION_ID } as never });
}

function renderChild(child: CardChild, out: Rendered, target: AdaptiveElement[]): void {
  switch (child.type) {
    case "text": {
      // People write :shortcode: emoji in card text as they do in Teams messages.
      const block = new TextBlock(convertTeamsEmojiPlaceholders(child.content), { wrap: true });
      if (child.style === "bold") block.withWeight("Bolder");
      if (child.style === "muted") block.withIsSubtle(true);
      target.push(block);
      return;
    }
    case "image":
      target.push(
        new Image(child.url, { size: "Auto", ...(child.alt ? { altText: child.alt } : {}) }),
      );
      return;
    case "divider":
      target.push(new Container().withSeparator(true));
      return;
    case "link":
      target.push(new TextBlock(`[${child.label}](${child.url})`, { wrap: true }));
      return;
    case "fields":
      target.push(
        new FactSet(...child.children.map((field) => new Fact(field.label, field.value))),
      );
      return;
    case "section": {
      const items: AdaptiveElement[] = [];
      for (const inner of child.children) renderChild(inner, out, items);
      target.push(new Container(...items));
      return;
    }
    case "actions": {
      // Each block with selects needs a submit button: its own, else an added one (upstream's).
      let inputs = false;
      let submits = false;
      for (const control of child.children) {
        if (control.type === "select" || control.type === "radio_select") {
          target.push(choiceSet(control));
          inputs = true;
        } else {
          const rendered = action(control);
          if (rendered !== undefined) out.actions.push(rendered);
          if (control.type === "button") submits = true;
        }
      }
      if (inputs && !submits) out.actions.push(autoSubmit());
      return;
    }
    case "table":
      target.push(table(child));
      return;
    case "chart": {
      // Teams' chart elements need a newer schema than 1.4 clients render: the chart's text.
      const text = cardChildToFallbackText(child);
      if (text) target.push(new TextBlock(text, { wrap: true, fontType: "Monospace" }));
      return;
    }
  }
}

/**
 * The SDK card objects as plain data (what the connector receives once serialized). Unlike a
 * JSON round trip, keys set to `undefined` stay, so `data.value` is present on every button.
 */
export function toPlainData<T>(value: unknown): T {
  if (Array.isArray(value)) return value.map((item) => toPlainData(item)) as T;
  if (typeof value !== "object" || value === null) return value as T;
  const source =
    typeof (value as { toJSON?: unknown }).toJSON === "function"
      ? ((value as { toJSON: () => unknown }).toJSON() as object)
      : value;
  const plain: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(source)) plain[key] = toPlainData(item);
  return plain as T;
}

/**
 * A Baton card as an Adaptive Card 1.4, built with `@microsoft/teams.cards`: title (bold,
 * large), subtitle (subtle), header image, then each child — text, images, dividers, links,
 * fields as a FactSet, sections as Containers, tables, selects as `Input.ChoiceSet` in the body
 * — and buttons as card-level `Action.Submit` (data `{ actionId, value }`) or `Action.OpenUrl`.
 * An actions block whose selects have no submit button of their own gets a Submit button
 * (`__auto_submit`), as upstream's card primitives do.
 */
export function cardToAdaptiveCard(card: CardElement): TeamsAdaptiveCard {
  const out: Rendered = { body: [], actions: [] };
  if (card.title) {
    out.body.push(new TextBlock(card.title, { weight: "Bolder", size: "Large", wrap: true }));
  }
  if (card.subtitle) out.body.push(new TextBlock(card.subtitle, { isSubtle: true, wrap: true }));
  if (card.imageUrl) out.body.push(new Image(card.imageUrl, { size: "Stretch" }));
  for (const child of card.children) renderChild(child, out, out.body);
  const adaptive = new AdaptiveCard(...out.body).withVersion(ADAPTIVE_CARD_VERSION);
  if (out.actions.length > 0) adaptive.withActions(...out.actions);
  const json = toPlainData<Omit<TeamsAdaptiveCard, "$schema">>(adaptive);
  return {
    ...json,
    $schema: ADAPTIVE_CARD_SCHEMA,
    body: json.body ?? [],
    ...(card.width === "full" ? { msteams: { width: "full" } } : {}),
  };
}

/** One child as plain text, by upstream's card-primitive rules (no markdown marks at all). */
function plainChildText(child: CardChild): string {
  switch (child.type) {
    case "text":
      return child.content;
    case "image":
      return child.alt ?? child.url;
    case "divider":
      return "---";
    case "actions":
      return child.children
        .map((control) => ("label" in control ? control.label : ""))
        .filter(Boolean)
        .join(" ");
    case "section":
      return child.children.map(plainChildText).filter(Boolean).join("\n");
    case "fields":
      return child.children.map((field) => `${field.label}: ${field.value}`).join("\n");
    case "link":
      return `${child.label}: ${child.url}`;
    case "table":
      return [child.headers.join(" | "), ...child.rows.map((row) => row.join(" | "))].join("\n");
    default:
      // A chart has no primitive rule upstream; its own text is the honest plain form.
      return cardChildToFallbackText(child) ?? "";
  }
}

/**
 * Upstream's plain fallback of the card primitives: title, subtitle and each child's text as
 * paragraphs — an image's alt text (or URL), `---` for a divider, the labels of actions,
 * `label: value` for fields and `label: url` for links, table rows joined by ` | ` — without
 * markdown marks (for surfaces that show no markdown at all).
 */
export function cardToTeamsFallbackText(card: CardElement): string {
  const parts = [card.title, card.subtitle, ...card.children.map(plainChildText)];
  return parts.filter((part): part is string => Boolean(part)).join("\n\n");
}

/** A card's text where it is not drawn (notifications, the activity's `summary`): no actions. */
export function cardToFallbackText(card: CardElement): string {
  return coreCardToFallbackText(card, { actions: "omit" });
}
