/**
 * `@baton/adapter-slack/blocks`: Block Kit as pure functions (no WebClient, no bolt). Cards render
 * through the adapter's own renderer (tables as Slack's data table, charts as data
 * visualizations), and questions with their answers render as checked blocks and a modal view.
 */
export type {
  ActionsElement as SlackActionsElement,
  ButtonElement as SlackButtonElement,
  ButtonStyle as SlackButtonStyle,
  CardChild as SlackCardChild,
  CardElement as SlackCardElement,
  ChartDefinition as SlackChartDefinition,
  ChartElement as SlackChartElement,
  DividerElement as SlackDividerElement,
  FieldElement as SlackFieldElement,
  FieldsElement as SlackFieldsElement,
  ImageElement as SlackImageElement,
  LinkButtonElement as SlackLinkButtonElement,
  LinkElement as SlackLinkElement,
  RadioSelectElement as SlackRadioSelectElement,
  SectionElement as SlackSectionElement,
  SelectElement as SlackSelectElement,
  SelectOptionElement as SlackSelectOptionElement,
  TableElement as SlackTableElement,
  TextElement as SlackTextElement,
  TextStyle as SlackTextStyle,
} from "@baton/core";
export { cardToSlackText, slackOption, slackRadioOption } from "../cards.js";
export {
  createSlackMrkdwn,
  createSlackPlainText,
  type SlackMrkdwnTextObject,
  type SlackPlainTextObject,
} from "../format-primitives.js";
export {
  cardToSlackBlocks as cardToBlockKit,
  cardToSlackBlocks,
  cardToSlackFallbackText as cardToFallbackText,
  cardToSlackFallbackText,
} from "./card.js";
export { convertSlackEmojiPlaceholders, mapSlackEmojiPlaceholders } from "./emoji.js";
export { SlackBlockError } from "./errors.js";
export {
  buildSlackFreeformView,
  parseSlackFreeformValue,
  SLACK_FREEFORM_ACTION_ID,
  SLACK_FREEFORM_BLOCK_ID,
  SLACK_FREEFORM_CALLBACK_ID,
  type SlackFreeformViewOptions,
} from "./freeform-view.js";
export {
  answeredSlackInputBlocks,
  inputRequestToSlackBlocks,
  parseSlackInputResponse,
  SLACK_FREEFORM_ACTION_PREFIX,
  SLACK_INPUT_ACTION_PREFIX,
  type SlackInputAction,
  type SlackInputOption,
  type SlackInputRequest,
  type SlackInputResponse,
} from "./input-request.js";
export { cutSlackValue, SLACK_LIMITS, truncateSlackText } from "./limits.js";
export type { SlackBlock, SlackBlocksOptions } from "./render-options.js";
export type {
  SlackChartDataPoint,
  SlackChartSegment,
  SlackChartSeries,
  SlackPieChartDefinition,
  SlackSeriesChartDefinition,
  SlackTableAlignment,
} from "./types.js";
