import type { ActionsChild, CardChild, CardElement } from "@baton/core";
import { cardToFallbackText } from "@baton/core";
import { TwilioFormatConverter } from "./format.js";

const SMS_CONVERTER = new TwilioFormatConverter("sms");

/** One numbered choice of a card rendered for SMS: replying with its number runs the action. */
export interface TwilioMenuChoice {
  /** The number the customer replies with, from 1. */
  readonly number: number;
  /** The action id `onAction` handlers see. */
  readonly actionId: string;
  /** The value the action carries (a button's `value`, a select option's `value`). */
  readonly value?: string;
  readonly label: string;
}

/** A card as SMS or WhatsApp text, with the choices its numbers stand for. */
export interface TwilioCardText {
  /** The card's text in the channel's dialect, then its links, then the numbered menu. */
  readonly text: string;
  readonly choices: readonly TwilioMenuChoice[];
}

/** Every control of a card's action rows, sections included, in reading order. */
export function actionRows(children: readonly CardChild[]): ActionsChild[] {
  const found: ActionsChild[] = [];
  for (const child of children) {
    if (child.type === "actions") found.push(...child.children);
    if (child.type === "section") found.push(...actionRows(child.children));
  }
  return found;
}

/**
 * Renders `card` for a channel without buttons: its text (title, body, fields, tables), link
 * buttons as `label: url`, then every button and every select option as a numbered line. The
 * returned `choices` let the adapter map a numeric reply back to the action it stands for.
 * Disabled buttons are left out: they can send nothing.
 */
export function cardToTwilioText(
  card: CardElement,
  converter: TwilioFormatConverter = SMS_CONVERTER,
): TwilioCardText {
  const choices: TwilioMenuChoice[] = [];
  const links: string[] = [];
  const add = (actionId: string, label: string, value?: string) => {
    choices.push({
      number: choices.length + 1,
      actionId,
      label,
      ...(value === undefined ? {} : { value }),
    });
  };
  for (const control of actionRows(card.children)) {
    switch (control.type) {
      case "button":
        if (!control.disabled) add(control.id, control.label, control.value);
        break;
      case "link-button":
        links.push(`${control.label}: ${control.url}`);
        break;
      case "select":
      case "radio_select":
        for (const option of control.options) add(control.id, option.label, option.value);
        break;
    }
  }
  // The card's own text is markdown (a bold title); links and the menu are added as plain lines
  // after rendering, so "1. Approve" is never re-read as a markdown list.
  const parts = [converter.fromMarkdown(cardToFallbackText(card, { actions: "omit" }))];
  if (links.length > 0) parts.push(links.join("\n"));
  if (choices.length > 0) {
    const lines = choices.map((choice) => `${choice.number}. ${choice.label}`);
    parts.push(["Reply with a number:", ...lines].join("\n"));
  }
  return { text: parts.filter((part) => part !== "").join("\n\n"), choices };
}

/** The choice a reply picks: the reply is a bare number of the menu, surrounding spaces allowed. */
export function choiceForReply(
  reply: string,
  choices: readonly TwilioMenuChoice[],
): TwilioMenuChoice | undefined {
  const match = /^\s*(\d{1,3})\s*\.?\s*$/.exec(reply);
  if (!match) return undefined;
  const number = Number(match[1]);
  return choices.find((choice) => choice.number === number);
}
