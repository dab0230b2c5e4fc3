import type { SlackAppContextEntity } from "./agent-context.js";
import { checkFeedbackButtonsOptions } from "./feedback-buttons.js";
import type { SlackSuggestedPrompt } from "./slack-assistant.js";

/** Prompts offered when a user opens the agent: the buttons and an optional heading. */
export interface SlackSuggestedPrompts {
  readonly title?: string;
  readonly prompts: readonly SlackSuggestedPrompt[];
}

/** What a prompts resolver knows about the thread the user opened. */
export interface SlackSuggestedPromptsContext {
  readonly channelId: string;
  /** The assistant thread; absent in the agent view, where prompts sit at the top of the DM. */
  readonly threadTs?: string;
  readonly userId: string;
  readonly teamId?: string;
  /** What the user is looking at (agent view), normalized; `[]` when Slack sent none. */
  readonly entities: readonly SlackAppContextEntity[];
}

/** Computes the prompts per thread; `null` (or `undefined`) sets none. */
export type SlackSuggestedPromptsResolver = (
  context: SlackSuggestedPromptsContext,
) => SlackSuggestedPrompts | null | undefined | Promise<SlackSuggestedPrompts | null | undefined>;

/** Labels, values and action id of the thumbs up/down Slack shows under a streamed reply. */
export interface SlackFeedbackButtonsOptions {
  /** The action id clicks arrive with (`chat.onAction(actionId, …)`). Default `message_feedback`. */
  readonly actionId?: string;
  readonly positiveLabel?: string;
  readonly negativeLabel?: string;
  /** The click's `value` for thumbs up. Default `positive`. */
  readonly positiveValue?: string;
  /** The click's `value` for thumbs down. Default `negative`. */
  readonly negativeValue?: string;
}

/** The Slack AI assistant and streaming fields of `SlackAdapterConfig` (upstream's names). */
export interface SlackAssistantConfig {
  /**
   * The app uses Slack's agent view (the DM is the agent's surface): top-level DM messages each
   * open a thread of their own, Messages-tab `app_home_opened` events reach `onAppHomeOpened`,
   * and configured prompts are set there. Default false (the legacy assistant view).
   */
  agentView?: boolean;
  /**
   * Prompts set on every new assistant thread (`assistant_thread_started`, or a Messages-tab
   * open under `agentView`): fixed, or computed per thread. At most 4 are sent (Slack's limit).
   * A resolver that throws, or a refused call, is logged; the webhook still answers 200.
   */
  suggestedPrompts?: SlackSuggestedPrompts | SlackSuggestedPromptsResolver;
  /**
   * Status lines rotated while the bot works: used by `startTyping` without a status and by
   * `setAssistantStatus` without its own loading messages.
   */
  loadingMessages?: readonly string[];
  /**
   * Slack's native streaming (`chat.startStream` …) in threads. Default true; `false` (Slack
   * flavours without it, e.g. GovSlack): `adapter.stream` answers `null` before reading the
   * stream, so every reply is streamed by post and edit.
   */
  nativeStreaming?: boolean;
  /**
   * Appends Slack's thumbs up/down (a `context_actions` block with `feedback_buttons`) to the
   * final `chat.stopStream` of every natively streamed reply, after the stream's own `endWith`
   * blocks; clicks reach `chat.onAction(actionId)`. A reply streamed by post and edit gets none.
   */
  feedbackButtons?: boolean | SlackFeedbackButtonsOptions;
}

/** The assistant fields, checked, with defaults applied. */
export interface ResolvedSlackAssistantOptions {
  readonly agentView: boolean;
  readonly suggestedPrompts: SlackSuggestedPrompts | SlackSuggestedPromptsResolver | undefined;
  readonly loadingMessages: readonly string[] | undefined;
  readonly nativeStreaming: boolean;
  readonly feedbackButtons: SlackFeedbackButtonsOptions | undefined;
}

/** Checks the assistant fields, pushing one line per bad field onto `problems`. */
export function resolveSlackAssistantOptions(
  config: SlackAssistantConfig,
  problems: string[],
): ResolvedSlackAssistantOptions {
  const prompts = config.suggestedPrompts;
  if (
    prompts !== undefined &&
    typeof prompts !== "function" &&
    !Array.isArray((prompts as { prompts?: unknown } | null)?.prompts)
  ) {
    problems.push("suggestedPrompts must be { prompts: [...] } or a function");
  }
  const loading = config.loadingMessages;
  if (
    loading !== undefined &&
    (!Array.isArray(loading) || loading.some((m) => typeof m !== "string"))
  ) {
    problems.push("loadingMessages must be a list of strings");
  }
  const feedback = config.feedbackButtons;
  if (
    feedback !== undefined &&
    typeof feedback !== "boolean" &&
    (typeof feedback !== "object" || feedback === null || Array.isArray(feedback))
  ) {
    problems.push("feedbackButtons must be true, false or an options object");
  } else if (typeof feedback === "object") {
    checkFeedbackButtonsOptions(feedback, problems);
  }
  const nativeStreaming = config.nativeStreaming;
  if (nativeStreaming !== undefined && typeof nativeStreaming !== "boolean") {
    problems.push("nativeStreaming must be true or false");
  }
  return {
    agentView: config.agentView === true,
    suggestedPrompts: prompts,
    loadingMessages: loading !== undefined && loading.length > 0 ? loading : undefined,
    nativeStreaming: config.nativeStreaming !== false,
    feedbackButtons:
      feedback === true
        ? {}
        : typeof feedback === "object" && feedback !== null
          ? feedback
          : undefined,
  };
}
