import type { SlackFeedbackButtonsOptions } from "./assistant-options.js";

/** The action id feedback clicks arrive with when none is configured (upstream's). */
export const DEFAULT_FEEDBACK_ACTION_ID = "message_feedback";

/** Slack's limits on a feedback button's label and value, and on an action id. */
export const FEEDBACK_LIMITS = { labelChars: 75, valueChars: 2_000, actionIdChars: 255 } as const;

/** One of the two buttons: what it shows and the `value` its click carries. */
export interface SlackFeedbackButton {
  readonly text: { readonly type: "plain_text"; readonly text: string };
  readonly value: string;
}

/** Slack's `context_actions` block holding one `feedback_buttons` element. */
export interface SlackFeedbackButtonsBlock {
  readonly type: "context_actions";
  readonly elements: readonly [
    {
      readonly type: "feedback_buttons";
      readonly action_id: string;
      readonly positive_button: SlackFeedbackButton;
      readonly negative_button: SlackFeedbackButton;
    },
  ];
}

function feedbackButton(label: string, value: string): SlackFeedbackButton {
  return { text: { type: "plain_text", text: label }, value };
}

/**
 * The thumbs up/down block Slack shows under an agent's reply (upstream's
 * `buildFeedbackButtonsBlock`): labels "Good response" / "Bad response", values `positive` /
 * `negative` and action id `message_feedback` unless `options` says otherwise. A click reaches
 * `chat.onAction(actionId, …)` with the button's value. Attach it to a non-streamed message as a
 * raw block; the `feedbackButtons` option appends it to natively streamed replies by itself.
 */
export function buildFeedbackButtonsBlock(
  options: SlackFeedbackButtonsOptions = {},
): SlackFeedbackButtonsBlock {
  return {
    type: "context_actions",
    elements: [
      {
        type: "feedback_buttons",
        action_id: options.actionId ?? DEFAULT_FEEDBACK_ACTION_ID,
        positive_button: feedbackButton(
          options.positiveLabel ?? "Good response",
          options.positiveValue ?? "positive",
        ),
        negative_button: feedbackButton(
          options.negativeLabel ?? "Bad response",
          options.negativeValue ?? "negative",
        ),
      },
    ],
  };
}

/**
 * Checks `feedbackButtons` options against Slack's limits, pushing one line per bad field onto
 * `problems` (Slack would refuse the whole `chat.stopStream` otherwise, at the end of a reply).
 */
export function checkFeedbackButtonsOptions(
  options: SlackFeedbackButtonsOptions,
  problems: string[],
): void {
  const fields: Array<[keyof SlackFeedbackButtonsOptions, number]> = [
    ["actionId", FEEDBACK_LIMITS.actionIdChars],
    ["positiveLabel", FEEDBACK_LIMITS.labelChars],
    ["negativeLabel", FEEDBACK_LIMITS.labelChars],
    ["positiveValue", FEEDBACK_LIMITS.valueChars],
    ["negativeValue", FEEDBACK_LIMITS.valueChars],
  ];
  for (const [field, maxChars] of fields) {
    const value: unknown = options[field];
    if (value === undefined) continue;
    if (typeof value !== "string" || value.trim() === "" || value.length > maxChars) {
      problems.push(
        `feedbackButtons.${field} must be a non-empty string of at most ${maxChars} characters`,
      );
    }
  }
}
