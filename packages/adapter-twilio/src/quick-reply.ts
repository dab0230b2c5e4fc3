import { createHash } from "node:crypto";
import type { CardElement } from "@baton/core";
import { cardToFallbackText } from "@baton/core";
import { actionRows, type TwilioMenuChoice } from "./cards.js";
import { TwilioFormatConverter } from "./format.js";

/** WhatsApp shows at most 3 quick-reply buttons on a message sent in the 24-hour session. */
export const WHATSAPP_QUICK_REPLY_MAX_BUTTONS = 3;
/** WhatsApp's limit on a reply button's title, in characters. */
export const WHATSAPP_BUTTON_TITLE_MAX = 20;
/** WhatsApp's limit on a reply button's id (Twilio's `ButtonPayload`), in characters. */
export const WHATSAPP_BUTTON_ID_MAX = 256;
/** Twilio's limit on the body of a `twilio/quick-reply` template, in characters. */
export const TWILIO_QUICK_REPLY_BODY_MAX = 1_024;

/** One button of a quick reply: `id` comes back as the tap's `ButtonPayload`. */
export interface TwilioQuickReplyButton {
  readonly id: string;
  readonly title: string;
}

/** A card expressed as a WhatsApp quick reply: its text, its buttons, and what each one runs. */
export interface TwilioQuickReply {
  /** The card's text in WhatsApp's dialect, link buttons as `label: url` lines after it. */
  readonly body: string;
  /**
   * The template body: one `{{n}}` per non-empty line of `body`, literal newlines between them,
   * since Twilio refuses a variable holding a newline, a tab or more than 4 spaces (21656).
   */
  readonly template: string;
  /** The template's variables (`"1"`, `"2"`, …), each one line of `body`, never empty. */
  readonly variables: Readonly<Record<string, string>>;
  readonly buttons: readonly TwilioQuickReplyButton[];
  /** The actions the buttons stand for, in button order (numbered from 1, as a menu would be). */
  readonly choices: readonly TwilioMenuChoice[];
}

const WHATSAPP = new TwilioFormatConverter("whatsapp");

function length(text: string): number {
  return [...text].length;
}

/**
 * The card as a WhatsApp quick reply, or `undefined` when quick replies cannot express it — then
 * the adapter sends the numbered text menu instead. Expressible: 1 to 3 enabled buttons with
 * distinct, non-empty titles of at most 20 characters and distinct ids of at most 256, no
 * select menus, and a non-empty body of at most 1 024 characters. Disabled buttons are left out,
 * as in the menu: they can send nothing.
 */
export function cardToQuickReply(card: CardElement): TwilioQuickReply | undefined {
  const buttons: TwilioQuickReplyButton[] = [];
  const choices: TwilioMenuChoice[] = [];
  const links: string[] = [];
  for (const control of actionRows(card.children)) {
    if (control.type === "select" || control.type === "radio_select") return undefined;
    if (control.type === "link-button") links.push(`${control.label}: ${control.url}`);
    if (control.type !== "button" || control.disabled) continue;
    buttons.push({ id: control.id, title: control.label });
    choices.push({
      number: choices.length + 1,
      actionId: control.id,
      label: control.label,
      ...(control.value === undefined ? {} : { value: control.value }),
    });
  }
  if (buttons.length === 0 || buttons.length > WHATSAPP_QUICK_REPLY_MAX_BUTTONS) return undefined;
  const titles = new Set(buttons.map((button) => button.title));
  const ids = new Set(buttons.map((button) => button.id));
  if (titles.size !== buttons.length || ids.size !== buttons.length) return undefined;
  for (const { id, title } of buttons) {
    if (title.trim() === "" || length(title) > WHATSAPP_BUTTON_TITLE_MAX) return undefined;
    if (id === "" || length(id) > WHATSAPP_BUTTON_ID_MAX) return undefined;
  }
  const text = WHATSAPP.fromMarkdown(cardToFallbackText(card, { actions: "omit" }));
  const joined = [text, links.join("\n")].filter((part) => part !== "").join("\n\n");
  const { body, template, variables } = templated(joined);
  if (Object.keys(variables).length === 0) return undefined;
  if (length(body) > TWILIO_QUICK_REPLY_BODY_MAX) return undefined;
  if (length(template) > TWILIO_QUICK_REPLY_BODY_MAX) return undefined;
  return { body, template, variables, buttons, choices };
}

/**
 * Splits text into a template of its line structure and one variable per non-empty line. Inside
 * a line, tabs become spaces and runs of more than 4 spaces shrink to 4, so no variable holds
 * what Twilio refuses; a line of only blanks becomes an empty line of the template.
 */
function templated(text: string): {
  body: string;
  template: string;
  variables: Record<string, string>;
} {
  const variables: Record<string, string> = {};
  const templateLines: string[] = [];
  const bodyLines: string[] = [];
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.replace(/\t/g, " ").replace(/ {5,}/g, "    ").trimEnd();
    if (line.trim() === "") {
      templateLines.push("");
      bodyLines.push("");
      continue;
    }
    const name = String(Object.keys(variables).length + 1);
    variables[name] = line;
    templateLines.push(`{{${name}}}`);
    bodyLines.push(line);
  }
  const trimBlank = (lines: string[]) => lines.join("\n").replace(/^\n+|\n+$/g, "");
  return { body: trimBlank(bodyLines), template: trimBlank(templateLines), variables };
}

/**
 * A Content template's identity: one template per distinct line structure and button set. The
 * text lives in the variables, so cards that differ only in their lines' text share a template.
 */
export function quickReplyShapeKey(
  buttons: readonly TwilioQuickReplyButton[],
  template = "{{1}}",
): string {
  const canonical = JSON.stringify([template, buttons.map((button) => [button.id, button.title])]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 32);
}

/**
 * The Content API's create request for a line structure and button set (Twilio's wire names).
 * The sample variables are fixed neutral words: Twilio keeps a template's samples for as long as
 * the template, so no customer's card text may end up there.
 */
export function quickReplyTemplateRequest(
  buttons: readonly TwilioQuickReplyButton[],
  template = "{{1}}",
): Record<string, unknown> {
  const names = [...template.matchAll(/\{\{(\d+)\}\}/g)].map((match) => match[1] as string);
  return {
    friendly_name: quickReplyFriendlyName(buttons, template),
    language: "en",
    variables: Object.fromEntries(names.map((name) => [name, `text ${name}`])),
    types: {
      "twilio/quick-reply": {
        body: template,
        actions: buttons.map((button) => ({ id: button.id, title: button.title })),
      },
    },
  };
}

/** The deterministic friendly name of a template, so a lost cache can find it. */
export function quickReplyFriendlyName(
  buttons: readonly TwilioQuickReplyButton[],
  template = "{{1}}",
): string {
  return `baton_quick_reply_${quickReplyShapeKey(buttons, template)}`;
}
