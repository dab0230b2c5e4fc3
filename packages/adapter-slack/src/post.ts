import {
  type AdapterPostableMessage,
  type CardElement,
  isCardElement,
  NotSupportedError,
  ValidationError,
} from "@baton/core";
import { cardToBlockKit, cardToSlackText, SLACK_LIMITS, type SlackBlock } from "./cards.js";
import { SlackFormatConverter } from "./format.js";
import { SLACK_ADAPTER_NAME } from "./thread-id.js";

const CONVERTER = new SlackFormatConverter();

/** A message as Slack's `chat.postMessage` arguments: mrkdwn text, and blocks for a card. */
export interface SlackMessageBody {
  readonly text: string;
  readonly blocks?: readonly SlackBlock[];
}

function cardOf(message: AdapterPostableMessage): CardElement | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  if ("card" in message) return message.card as CardElement;
  return isCardElement(message) ? (message as CardElement) : undefined;
}

/**
 * Renders a postable message for Slack: a card as Block Kit with its text fallback, markdown and
 * ASTs as mrkdwn, a string or `{ raw }` as given. Files are refused with a NotSupportedError:
 * only `postMessage` uploads them (see `postSlackMessage`), since Slack cannot attach files to an
 * edit, an ephemeral or a scheduled message; empty text is a ValidationError.
 */
export function renderSlackMessage(message: AdapterPostableMessage): SlackMessageBody {
  if (typeof message === "object" && message !== null && "files" in message) {
    if (message.files && message.files.length > 0) {
      throw new NotSupportedError(SLACK_ADAPTER_NAME, "files");
    }
  }
  const card = cardOf(message);
  if (card !== undefined) {
    const fallback =
      typeof message === "object" && message !== null && "fallbackText" in message
        ? message.fallbackText
        : undefined;
    return {
      text: fallback ? CONVERTER.fromMarkdown(fallback) : cardToSlackText(card),
      blocks: cardToBlockKit(card),
    };
  }
  const text = CONVERTER.renderPostable(message);
  if (text.trim() === "") {
    throw new ValidationError("a Slack message needs text", { step: "render slack message" });
  }
  return { text };
}

/**
 * Text over Slack's 40 000-character limit, as parts: cut at the last blank line, else line
 * break, else space before the limit, so a long reply becomes several posts instead of a refusal.
 */
export function splitSlackText(text: string, max: number = SLACK_LIMITS.messageText): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = window.lastIndexOf("\n\n");
    if (cut < max / 2) cut = window.lastIndexOf("\n");
    if (cut < max / 2) cut = window.lastIndexOf(" ");
    if (cut < max / 2) cut = max;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== "" || parts.length === 0) parts.push(rest);
  return parts;
}
