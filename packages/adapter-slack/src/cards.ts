import {
  type ActionsChild,
  type CardChild,
  type CardElement,
  cardToFallbackText,
  type FieldsElement,
  type SelectOptionElement,
} from "@baton/core";
import { chartToSlackBlock } from "./blocks/chart-block.js";
import { mapSlackEmojiPlaceholders } from "./blocks/emoji.js";
import { cutSlackValue, SLACK_LIMITS, truncateSlackText } from "./blocks/limits.js";
import {
  createRenderState,
  type SlackBlock,
  type SlackBlocksOptions,
  type SlackRenderState,
} from "./blocks/render-options.js";
import { tableToSlackBlock } from "./blocks/table-block.js";
import { SlackFormatConverter } from "./format.js";

export { SLACK_LIMITS, truncateSlackText } from "./blocks/limits.js";
export type { SlackBlock, SlackBlocksOptions } from "./blocks/render-options.js";

const CONVERTER = new SlackFormatConverter();

// Cards set Slack's `emoji` flag on plain text (upstream's Block Kit output); modal views do not.
function plain(text: string, max: number) {
  return { type: "plain_text", text: truncateSlackText(text || " ", max), emoji: true };
}

function mrkdwn(markdown: string, max: number = SLACK_LIMITS.sectionText) {
  return {
    type: "mrkdwn",
    text: truncateSlackText(CONVERTER.fromMarkdown(markdown) || " ", max),
  };
}

/** A radio button option: Slack renders its label and description as mrkdwn. */
export function slackRadioOption(option: SelectOptionElement) {
  return {
    text: { type: "mrkdwn", text: truncateSlackText(option.label, SLACK_LIMITS.optionText) },
    value: cutSlackValue(option.value, SLACK_LIMITS.optionValue),
    ...(option.description
      ? {
          description: {
            type: "mrkdwn",
            text: truncateSlackText(option.description, SLACK_LIMITS.optionText),
          },
        }
      : {}),
  };
}

/**
 * A Block Kit option object, its value cut to Slack's 150 characters. `emoji` sets Slack's emoji
 * flag on its texts, as card controls carry it; modal inputs and dynamic select answers leave it
 * out.
 */
export function slackOption(option: SelectOptionElement, emoji = false) {
  const text = (value: string) => ({
    type: "plain_text",
    text: truncateSlackText(value, SLACK_LIMITS.optionText),
    ...(emoji ? { emoji: true } : {}),
  });
  return {
    text: text(option.label),
    value: cutSlackValue(option.value, SLACK_LIMITS.optionValue),
    ...(option.description ? { description: text(option.description) } : {}),
  };
}

/**
 * A card's text fallback as mrkdwn, its controls listed (ADR 0018), emoji placeholders written
 * with `convertEmoji` (default: Slack's names from core's emoji map).
 */
export function cardToSlackFallbackText(
  card: CardElement,
  options: Pick<SlackBlocksOptions, "convertEmoji"> = {},
): string {
  const convertEmoji = options.convertEmoji ?? mapSlackEmojiPlaceholders;
  return CONVERTER.fromMarkdown(convertEmoji(cardToFallbackText(card)));
}

function withEmoji(option: SelectOptionElement, convert: (text: string) => string) {
  return {
    ...option,
    label: convert(option.label),
    ...(option.description ? { description: convert(option.description) } : {}),
  };
}

/** The option whose (cut) value is `initial`, so a long initial value still matches. */
function initialOf<T extends { value: string }>(options: T[], initial: string | undefined) {
  if (initial === undefined) return undefined;
  const value = cutSlackValue(initial, SLACK_LIMITS.optionValue);
  return options.find((option) => option.value === value);
}

function buttonStyle(style: string | undefined) {
  return style === "primary" || style === "danger" ? { style } : {};
}

function controlOf(control: ActionsChild, convert: (text: string) => string) {
  switch (control.type) {
    case "button":
      return {
        type: "button",
        action_id: cutSlackValue(control.id, SLACK_LIMITS.actionId),
        text: plain(convert(control.label), SLACK_LIMITS.buttonText),
        ...(control.value === undefined
          ? {}
          : { value: cutSlackValue(control.value, SLACK_LIMITS.buttonValue) }),
        ...buttonStyle(control.style),
      };
    case "link-button":
      return {
        type: "button",
        action_id: cutSlackValue(control.id ?? `link:${control.url}`, SLACK_LIMITS.actionId),
        text: plain(convert(control.label), SLACK_LIMITS.buttonText),
        url: cutSlackValue(control.url, SLACK_LIMITS.url),
        ...buttonStyle(control.style),
      };
    case "select": {
      const options = control.options
        .slice(0, SLACK_LIMITS.options)
        .map((option) => slackOption(withEmoji(option, convert), true));
      const initial = initialOf(options, control.initialOption);
      return {
        type: "static_select",
        action_id: cutSlackValue(control.id, SLACK_LIMITS.actionId),
        placeholder: plain(convert(control.placeholder ?? control.label), SLACK_LIMITS.placeholder),
        options,
        ...(initial ? { initial_option: initial } : {}),
      };
    }
    case "radio_select": {
      const options = control.options
        .slice(0, SLACK_LIMITS.radioOptions)
        .map((option) => slackRadioOption(withEmoji(option, convert)));
      const initial = initialOf(options, control.initialOption);
      return {
        type: "radio_buttons",
        action_id: cutSlackValue(control.id, SLACK_LIMITS.actionId),
        options,
        ...(initial ? { initial_option: initial } : {}),
      };
    }
  }
}

function fieldsBlock(fields: FieldsElement, convert: (text: string) => string): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  for (let start = 0; start < fields.children.length; start += SLACK_LIMITS.fields) {
    const slice = fields.children.slice(start, start + SLACK_LIMITS.fields);
    blocks.push({
      type: "section",
      fields: slice.map((field) =>
        mrkdwn(`**${convert(field.label)}**\n${convert(field.value)}`, SLACK_LIMITS.fieldText),
      ),
    });
  }
  return blocks;
}

function image(url: string, alt: string) {
  return {
    type: "image",
    image_url: cutSlackValue(url, SLACK_LIMITS.url),
    alt_text: truncateSlackText(alt, SLACK_LIMITS.imageAlt),
  };
}

function childBlocks(child: CardChild, state: SlackRenderState): SlackBlock[] {
  const convert = state.convertEmoji;
  switch (child.type) {
    case "text": {
      const content = convert(child.content);
      if (child.style === "muted") {
        return [{ type: "context", elements: [mrkdwn(content)] }];
      }
      return [
        { type: "section", text: mrkdwn(child.style === "bold" ? `**${content}**` : content) },
      ];
    }
    case "image":
      return [image(child.url, convert(child.alt || "Image"))];
    case "divider":
      return [{ type: "divider" }];
    case "actions":
      return [
        {
          type: "actions",
          elements: child.children
            .slice(0, SLACK_LIMITS.actionElements)
            .map((control) => controlOf(control, convert)),
        },
      ];
    case "section":
      return child.children.flatMap((nested) => childBlocks(nested, state));
    case "fields":
      return fieldsBlock(child, convert);
    case "link":
      return [{ type: "section", text: mrkdwn(`[${convert(child.label)}](${child.url})`) }];
    case "table":
      return [tableToSlackBlock(child, state)];
    case "chart":
      return [chartToSlackBlock(child, state)];
  }
}

/**
 * A card as Block Kit: a header for the title, a context line for the subtitle, an image, then
 * each child (text → section or context, fields → sections of ≤ 10 fields, actions → an actions
 * block of buttons, link buttons, selects and radio buttons, a table → Slack's data table, a
 * chart → a data visualization, each falling back to monospace text past Slack's limits).
 * Emoji placeholders are written by `options.convertEmoji` (default: Slack's names from core's
 * emoji map). Text over Slack's limits is cut with "…", URLs and values at the limit; past
 * `options.maxBlocks` (default 50) the rest is dropped and a last block says so, so a big card
 * never makes the post fail. Throws a SlackBlockError for a `maxBlocks` outside 1–50.
 */
export function cardToBlockKit(card: CardElement, options: SlackBlocksOptions = {}): SlackBlock[] {
  const state = createRenderState(options, mapSlackEmojiPlaceholders);
  const convert = state.convertEmoji;
  const blocks: SlackBlock[] = [];
  if (card.title) {
    blocks.push({ type: "header", text: plain(convert(card.title), SLACK_LIMITS.headerText) });
  }
  if (card.subtitle) blocks.push({ type: "context", elements: [mrkdwn(convert(card.subtitle))] });
  if (card.imageUrl) blocks.push(image(card.imageUrl, convert(card.title || "Card image")));
  for (const child of card.children) blocks.push(...childBlocks(child, state));
  if (blocks.length <= state.maxBlocks) return blocks;
  const kept = blocks.slice(0, state.maxBlocks - 1);
  kept.push({
    type: "context",
    elements: [mrkdwn(`_(card truncated: Slack shows ${state.maxBlocks} blocks)_`)],
  });
  return kept;
}

/** The notification text of a card (Slack shows it in notifications and old clients). */
export function cardToSlackText(card: CardElement): string {
  return truncateSlackText(
    CONVERTER.fromMarkdown(
      mapSlackEmojiPlaceholders(cardToFallbackText(card, { actions: "omit" })),
    ),
    SLACK_LIMITS.messageText,
  );
}
