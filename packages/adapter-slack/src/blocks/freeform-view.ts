import { createSlackMrkdwn, createSlackPlainText } from "../format-primitives.js";
import { SlackBlockError } from "./errors.js";
import { SLACK_LIMITS, truncateSlackText } from "./limits.js";

/** The `callback_id` of the freeform answer modal. */
export const SLACK_FREEFORM_CALLBACK_ID = "input-freeform-submit";
/** The `block_id` of the modal's answer input. */
export const SLACK_FREEFORM_BLOCK_ID = "input-freeform-block";
/** The `action_id` of the modal's answer input. */
export const SLACK_FREEFORM_ACTION_ID = "input-freeform-text";

/** Slack's limits on a modal view. */
const MODAL_TITLE_CHARS = 24;
const PRIVATE_METADATA_CHARS = 3_000;

/** What the freeform answer modal shows and carries. */
export interface SlackFreeformViewOptions {
  /** Kept in `private_metadata` (a string as it is, anything else as JSON); at most 3 000 characters. */
  readonly metadata: unknown;
  /** Shown above the input as mrkdwn, and the title when `title` is not given. */
  readonly prompt?: string;
  /** The modal's title; cut to Slack's 24 characters with "…" (default "Your answer"). */
  readonly title?: string;
}

/**
 * A modal view asking for a typed answer: the prompt, a multiline text input, Submit and
 * Cancel. Throws a SlackBlockError when the metadata is over Slack's 3 000 characters.
 */
export function buildSlackFreeformView(options: SlackFreeformViewOptions): Record<string, unknown> {
  const metadata =
    typeof options.metadata === "string" ? options.metadata : JSON.stringify(options.metadata);
  if (metadata !== undefined && metadata.length > PRIVATE_METADATA_CHARS) {
    throw new SlackBlockError(
      `metadata is ${metadata.length} characters; Slack keeps at most ${PRIVATE_METADATA_CHARS}`,
    );
  }
  const title = options.title || options.prompt || "Your answer";
  const blocks: unknown[] = options.prompt
    ? [
        {
          type: "section",
          text: createSlackMrkdwn(truncateSlackText(options.prompt, SLACK_LIMITS.sectionText)),
        },
      ]
    : [];
  blocks.push({
    type: "input",
    block_id: SLACK_FREEFORM_BLOCK_ID,
    label: createSlackPlainText("Answer"),
    element: { type: "plain_text_input", action_id: SLACK_FREEFORM_ACTION_ID, multiline: true },
  });
  return {
    type: "modal",
    callback_id: SLACK_FREEFORM_CALLBACK_ID,
    title: createSlackPlainText(truncateSlackText(title, MODAL_TITLE_CHARS)),
    submit: createSlackPlainText("Submit"),
    close: createSlackPlainText("Cancel"),
    blocks,
    ...(metadata === undefined ? {} : { private_metadata: metadata }),
  };
}

/** The typed answer among a modal submit's values, or `undefined` when it holds none. */
export function parseSlackFreeformValue(
  values: readonly {
    readonly actionId: string;
    readonly blockId: string;
    readonly value?: string;
  }[],
): string | undefined {
  return values.find(
    (value) =>
      value.blockId === SLACK_FREEFORM_BLOCK_ID && value.actionId === SLACK_FREEFORM_ACTION_ID,
  )?.value;
}
