import {
  type ActionsChild,
  type CardChild,
  type CardElement,
  cardToFallbackText,
  type FieldsElement,
  type SelectOptionElement,
} from "@baton/core";
import { SlackFormatConverter } from "./format.js";

/** One Block Kit block (Slack's JSON, loosely typed: Slack validates it). */
export type SlackBlock = Record<string, unknown>;

const CONVERTER = new SlackFormatConverter();

/** Slack's limits the renderer keeps to (api.slack.com/reference/block-kit). */
export const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3_000,
  headerText: 150,
  buttonText: 75,
  actionId: 255,
  actionElements: 25,
  fields: 10,
  fieldText: 2_000,
  options: 100,
  optionText: 75,
  messageText: 40_000,
} as const;

/** `text` cut to `max` characters, ending with "…" when cut: never a refused post. */
export function truncateSlackText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

// Cards set Slack's `emoji` flag on plain text (upstream's Block Kit output); modal views do not.
function plain(text: string, max: number) {
  return { type: "plain_text", text: truncateSlackText(text || " ", max), emoji: true };
}

function mrkdwn(markdown: string, max: number = SLACK_LIMITS.sectionText) {
  return { type: "mrkdwn", text: truncateSlackText(CONVERTER.fromMarkdown(markdown), max) };
}

/** A radio button option: Slack renders its label and description as mrkdwn. */
export function slackRadioOption(option: SelectOptionElement) {
  return {
    text: { type: "mrkdwn", text: truncateSlackText(option.label, SLACK_LIMITS.optionText) },
    value: option.value,
    ...(option.description ? { description: { type: "mrkdwn", text: option.description } } : {}),
  };
}

/**
 * A Block Kit option object. `emoji` sets Slack's emoji flag on its texts, as card controls
 * carry it; modal inputs and dynamic select answers leave it out.
 */
export function slackOption(option: SelectOptionElement, emoji = false) {
  const text = (value: string) => ({
    type: "plain_text",
    text: truncateSlackText(value, SLACK_LIMITS.optionText),
    ...(emoji ? { emoji: true } : {}),
  });
  return {
    text: text(option.label),
    value: option.value,
    ...(option.description ? { description: text(option.description) } : {}),
  };
}

/** A card's text fallback as mrkdwn, its controls listed (upstream's `cardToFallbackText`). */
export function cardToSlackFallbackText(card: CardElement): string {
  return CONVERTER.fromMarkdown(cardToFallbackText(card));
}

function controlOf(control: ActionsChild): Record<string, unknown> {
  switch (control.type) {
    case "button":
      return {
        type: "button",
        action_id: control.id,
        text: plain(control.label, SLACK_LIMITS.buttonText),
        ...(control.value === undefined ? {} : { value: control.value }),
        ...(control.style === "primary" || control.style === "danger"
          ? { style: control.style }
          : {}),
      };
    case "link-button":
      return {
        type: "button",
        action_id: control.id ?? `link:${control.url}`.slice(0, SLACK_LIMITS.actionId),
        text: plain(control.label, SLACK_LIMITS.buttonText),
        url: control.url,
        ...(control.style === "primary" || control.style === "danger"
          ? { style: control.style }
          : {}),
      };
    case "select": {
      const options = control.options
        .slice(0, SLACK_LIMITS.options)
        .map((option) => slackOption(option, true));
      const initial = options.find((option) => option.value === control.initialOption);
      return {
        type: "static_select",
        action_id: control.id,
        placeholder: plain(control.placeholder ?? control.label, 150),
        options,
        ...(initial ? { initial_option: initial } : {}),
      };
    }
    case "radio_select": {
      const options = control.options.slice(0, 10).map(slackRadioOption);
      const initial = options.find((option) => option.value === control.initialOption);
      return {
        type: "radio_buttons",
        action_id: control.id,
        options,
        ...(initial ? { initial_option: initial } : {}),
      };
    }
  }
}

function fieldsBlock(fields: FieldsElement): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  for (let start = 0; start < fields.children.length; start += SLACK_LIMITS.fields) {
    const slice = fields.children.slice(start, start + SLACK_LIMITS.fields);
    blocks.push({
      type: "section",
      fields: slice.map((field) =>
        mrkdwn(`**${field.label}**\n${field.value}`, SLACK_LIMITS.fieldText),
      ),
    });
  }
  return blocks;
}

function childBlocks(child: CardChild): SlackBlock[] {
  switch (child.type) {
    case "text": {
      const content = child.style === "bold" ? `**${child.content}**` : child.content;
      if (child.style === "muted") {
        return [{ type: "context", elements: [mrkdwn(content)] }];
      }
      return [{ type: "section", text: mrkdwn(content) }];
    }
    case "image":
      return [{ type: "image", image_url: child.url, alt_text: child.alt || "image" }];
    case "divider":
      return [{ type: "divider" }];
    case "actions":
      return [
        {
          type: "actions",
          elements: child.children.slice(0, SLACK_LIMITS.actionElements).map(controlOf),
        },
      ];
    case "section":
      return child.children.flatMap(childBlocks);
    case "fields":
      return fieldsBlock(child);
    case "link":
      return [{ type: "section", text: mrkdwn(`[${child.label}](${child.url})`) }];
    case "table":
    case "chart":
      // Slack has no table or chart block for apps: their text form goes in a monospace block.
      return [
        {
          type: "section",
          text: mrkdwn(
            `\`\`\`\n${cardToFallbackText({ type: "card", children: [child] })}\n\`\`\``,
          ),
        },
      ];
  }
}

/**
 * A card as Block Kit: a header for the title, a context line for the subtitle, an image, then
 * each child (text → section or context, fields → sections of ≤ 10 fields, actions → an actions
 * block of buttons, link buttons, selects and radio buttons, tables and charts as monospace
 * text). Text over Slack's limits is cut with "…"; past 50 blocks the rest is dropped and a
 * last block says so, so a big card never makes the post fail.
 */
export function cardToBlockKit(card: CardElement): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  if (card.title) blocks.push({ type: "header", text: plain(card.title, SLACK_LIMITS.headerText) });
  if (card.subtitle) blocks.push({ type: "context", elements: [mrkdwn(card.subtitle)] });
  if (card.imageUrl)
    blocks.push({ type: "image", image_url: card.imageUrl, alt_text: card.title ?? "image" });
  for (const child of card.children) blocks.push(...childBlocks(child));
  if (blocks.length <= SLACK_LIMITS.blocks) return blocks;
  const kept = blocks.slice(0, SLACK_LIMITS.blocks - 1);
  kept.push({ type: "context", elements: [mrkdwn("_(card truncated: Slack shows 50 blocks)_")] });
  return kept;
}

/** The notification text of a card (Slack shows it in notifications and old clients). */
export function cardToSlackText(card: CardElement): string {
  return truncateSlackText(
    CONVERTER.fromMarkdown(cardToFallbackText(card, { actions: "omit" })),
    SLACK_LIMITS.messageText,
  );
}
