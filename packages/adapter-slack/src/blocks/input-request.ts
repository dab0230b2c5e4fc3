import { createSlackMrkdwn, createSlackPlainText, formatSlackUser } from "../format-primitives.js";
import { SlackBlockError } from "./errors.js";
import { escapeSlackLiteral, truncateEscapedSlackText } from "./escape.js";
import { SLACK_LIMITS, truncateSlackText } from "./limits.js";
import type { SlackBlock } from "./render-options.js";

/** Starts the action id of an answer control: `input:{requestId}` or `input:{requestId}:button:{n}`. */
export const SLACK_INPUT_ACTION_PREFIX = "input:";
/** Starts the action id of the "Type your answer" button: `input-freeform:{requestId}`. */
export const SLACK_FREEFORM_ACTION_PREFIX = "input-freeform:";

const BUTTON_ACTION = /^(.+):button:\d+$/u;

/** One answer a user can pick. */
export interface SlackInputOption {
  /** What the answer reports back (`optionId`); 1 to 150 characters (2 000 for buttons). */
  readonly id: string;
  /** What the user reads; cut to 75 characters with "…". */
  readonly label: string;
  /** Button style (buttons only); `default` draws the plain button. */
  readonly style?: "danger" | "default" | "primary";
}

/** A question posted to a thread, answered by clicking or picking an option, or by typing. */
export interface SlackInputRequest {
  /** Names the question in every action id, so an answer finds its question. */
  readonly requestId: string;
  /** The question, as mrkdwn; cut to 3 000 characters with "…". */
  readonly prompt: string;
  readonly options?: readonly SlackInputOption[];
  /** `buttons` (default, up to 25), a `select` (up to 100) or `radio` buttons (past 10: a select). */
  readonly display?: "buttons" | "radio" | "select";
  /** Adds a "Type your answer" button (always there when there are no options). */
  readonly allowFreeform?: boolean;
}

/** The parts of a Slack block action an answer is read from. */
export interface SlackInputAction {
  readonly actionId: string;
  readonly value?: string;
  readonly selectedOptionValue?: string;
}

/** An answer: which question, and the picked option's id. */
export interface SlackInputResponse {
  readonly requestId: string;
  readonly optionId?: string;
}

function actionId(id: string): string {
  if (id.length > SLACK_LIMITS.actionId) {
    throw new SlackBlockError(
      `requestId makes the action id "${id.slice(0, 40)}…" longer than Slack's ${SLACK_LIMITS.actionId} characters`,
    );
  }
  return id;
}

function label(option: SlackInputOption, index: number) {
  if (option.label.length === 0) throw new SlackBlockError(`options[${index}].label is empty`);
  return createSlackPlainText(truncateSlackText(option.label, SLACK_LIMITS.optionText));
}

// An id cut to fit would come back as another answer, so one that does not fit is refused.
function optionId(option: SlackInputOption, index: number, max: number): string {
  if (option.id.length === 0 || option.id.length > max) {
    throw new SlackBlockError(`options[${index}].id must be 1 to ${max} characters`);
  }
  return option.id;
}

function atMost(count: number, max: number, what: string): void {
  if (count > max) throw new SlackBlockError(`${what} holds at most ${max} options, got ${count}`);
}

function freeformButton(requestId: string) {
  return {
    type: "button",
    action_id: actionId(`${SLACK_FREEFORM_ACTION_PREFIX}${requestId}`),
    style: "primary",
    text: createSlackPlainText("Type your answer"),
    value: requestId,
  };
}

function choiceOptions(options: readonly SlackInputOption[]) {
  return options.map((option, index) => ({
    text: label(option, index),
    value: optionId(option, index, SLACK_LIMITS.optionValue),
  }));
}

function selectElement(requestId: string, options: readonly SlackInputOption[]) {
  atMost(options.length, SLACK_LIMITS.options, "A select");
  return {
    type: "static_select",
    action_id: actionId(`${SLACK_INPUT_ACTION_PREFIX}${requestId}`),
    options: choiceOptions(options),
    placeholder: createSlackPlainText("Choose an option"),
  };
}

function answerElements(request: SlackInputRequest, options: readonly SlackInputOption[]) {
  const id = request.requestId;
  if (request.display === "select") return [selectElement(id, options)];
  if (request.display === "radio") {
    // Slack draws at most 10 radio buttons; more options still fit a select.
    if (options.length > SLACK_LIMITS.radioOptions) return [selectElement(id, options)];
    return [
      {
        type: "radio_buttons",
        action_id: actionId(`${SLACK_INPUT_ACTION_PREFIX}${id}`),
        options: choiceOptions(options),
      },
    ];
  }
  const room = SLACK_LIMITS.actionElements - (request.allowFreeform ? 1 : 0);
  atMost(options.length, room, "A row of buttons");
  return options.map((option, index) => ({
    type: "button",
    action_id: actionId(`${SLACK_INPUT_ACTION_PREFIX}${id}:button:${index}`),
    text: label(option, index),
    value: optionId(option, index, SLACK_LIMITS.buttonValue),
    ...(option.style === "primary" || option.style === "danger" ? { style: option.style } : {}),
  }));
}

/**
 * A question as two blocks: the prompt as a mrkdwn section, then an actions block with its
 * options (buttons, a select or radio buttons) and, when `allowFreeform` is set or there are no
 * options, a "Type your answer" button. Throws a SlackBlockError for an empty `requestId` or
 * prompt, an empty label, an option id that Slack would cut, too many options, or a `requestId`
 * too long for an action id.
 */
export function inputRequestToSlackBlocks(request: SlackInputRequest): SlackBlock[] {
  if (request.requestId.length === 0) throw new SlackBlockError("requestId is empty");
  if (request.prompt.length === 0) throw new SlackBlockError("prompt is empty");
  const prompt = {
    type: "section",
    text: createSlackMrkdwn(truncateSlackText(request.prompt, SLACK_LIMITS.sectionText)),
  };
  const options = request.options ?? [];
  const freeform =
    request.allowFreeform || options.length === 0 ? [freeformButton(request.requestId)] : [];
  const answers = options.length === 0 ? [] : answerElements(request, options);
  return [prompt, { type: "actions", elements: [...answers, ...freeform] }];
}

/**
 * The answer an action carries, or `null` for an action that is not an answer control of
 * `inputRequestToSlackBlocks` (the freeform button included: its answer comes with the modal).
 */
export function parseSlackInputResponse(action: SlackInputAction): SlackInputResponse | null {
  if (!action.actionId.startsWith(SLACK_INPUT_ACTION_PREFIX)) return null;
  const rest = action.actionId.slice(SLACK_INPUT_ACTION_PREFIX.length);
  if (action.selectedOptionValue !== undefined) {
    return rest ? { requestId: rest, optionId: action.selectedOptionValue } : null;
  }
  const requestId = BUTTON_ACTION.exec(rest)?.[1];
  return requestId && action.value !== undefined ? { requestId, optionId: action.value } : null;
}

/**
 * The blocks that replace an answered question: `promptBlock` when given, the answer in bold
 * behind a check mark (escaped, so a typed answer shows literally and pings no one), and who
 * answered. Throws a SlackBlockError for an empty answer, a TypeError for a `userId` that is not
 * a Slack id.
 */
export function answeredSlackInputBlocks(input: {
  readonly answer: string;
  readonly userId?: string;
  readonly promptBlock?: SlackBlock;
}): SlackBlock[] {
  if (input.answer.length === 0) throw new SlackBlockError("answer is empty");
  const answer = truncateEscapedSlackText(escapeSlackLiteral(input.answer), 2_900);
  const blocks: SlackBlock[] = input.promptBlock ? [input.promptBlock] : [];
  blocks.push({ type: "section", text: createSlackMrkdwn(`:white_check_mark: *${answer}*`) });
  if (input.userId !== undefined) {
    blocks.push({
      type: "context",
      elements: [createSlackMrkdwn(`Answered by ${formatSlackUser(input.userId)}`)],
    });
  }
  return blocks;
}
