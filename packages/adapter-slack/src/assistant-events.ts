import type { AssistantThreadStartedEvent, ChatHost, ProcessOptions } from "@baton/core";
import { normalizeAppContextEntities, type SlackAppContext } from "./agent-context.js";
import type { SlackSuggestedPromptsContext } from "./assistant-options.js";
import type { SlackEvent } from "./parse.js";
import { setSlackSuggestedPrompts } from "./slack-assistant.js";
import { encodeSlackThreadId } from "./thread-id.js";
import type { SlackWebhookTarget } from "./webhook-target.js";

/** Slack shows at most this many suggested prompts; more are refused. */
export const SLACK_MAX_SUGGESTED_PROMPTS = 4;

type Json = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function record(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

/** `assistant_thread` of Slack's assistant events, in core's shape. */
function assistantThreadEvent(event: SlackEvent): AssistantThreadStartedEvent | undefined {
  const thread = record(event.assistant_thread);
  const channelId = str(thread?.channel_id);
  const threadTs = str(thread?.thread_ts);
  if (thread === undefined || channelId === undefined || threadTs === undefined) return undefined;
  const context = record(thread.context) ?? {};
  const optional = (key: string, value: unknown) => (value === undefined ? {} : { [key]: value });
  return {
    threadId: encodeSlackThreadId({ channel: channelId, threadTs }),
    threadTs,
    channelId,
    userId: str(thread.user_id) ?? "",
    context: {
      ...optional("channelId", str(context.channel_id)),
      ...optional("teamId", str(context.team_id)),
      ...optional("enterpriseId", str(context.enterprise_id)),
      ...optional("threadEntryPoint", str(context.thread_entry_point)),
      ...optional(
        "forceSearch",
        typeof context.force_search === "boolean" ? context.force_search : undefined,
      ),
    },
    raw: event,
  };
}

function entitiesOf(event: SlackEvent) {
  return normalizeAppContextEntities(record(event.context) as SlackAppContext | undefined);
}

/**
 * Sets the configured prompts of a new thread. Prompts are a courtesy: a resolver that throws
 * or a refused call is logged, and the handlers still run.
 */
async function applySuggestedPrompts(
  target: SlackWebhookTarget,
  context: SlackSuggestedPromptsContext,
): Promise<void> {
  const configured = target.options.assistant.suggestedPrompts;
  if (configured === undefined) return;
  const logger = target.logger();
  try {
    const resolved = typeof configured === "function" ? await configured(context) : configured;
    if (resolved === null || resolved === undefined || resolved.prompts.length === 0) return;
    let prompts = resolved.prompts;
    if (prompts.length > SLACK_MAX_SUGGESTED_PROMPTS) {
      logger.warn("slack: more suggested prompts than Slack shows; sending the first 4", {
        count: prompts.length,
      });
      prompts = prompts.slice(0, SLACK_MAX_SUGGESTED_PROMPTS);
    }
    await setSlackSuggestedPrompts(
      target.api,
      context.channelId,
      context.threadTs,
      prompts,
      resolved.title,
    );
  } catch (error) {
    logger.warn("slack: could not set suggested prompts", { error, channel: context.channelId });
  }
}

/**
 * The work of an assistant or app-surface event (`assistant_thread_started`,
 * `assistant_thread_context_changed`, `app_home_opened`, `app_context_changed`,
 * `member_joined_channel`), or undefined for one the adapter ignores. An `app_home_opened` of
 * the Messages tab is the agent view's "thread started": it is ignored unless `agentView` is on.
 */
export function assistantEventWork(
  target: SlackWebhookTarget,
  host: ChatHost,
  team: string,
  event: SlackEvent,
  options: ProcessOptions,
): (() => Promise<void>) | undefined {
  const { adapter } = target;
  const { agentView } = target.options.assistant;
  switch (event.type) {
    case "assistant_thread_started": {
      const started = assistantThreadEvent(event);
      if (started === undefined) return undefined;
      return async () => {
        await applySuggestedPrompts(target, {
          channelId: started.channelId,
          threadTs: started.threadTs,
          userId: started.userId,
          entities: [],
          ...((started.context.teamId ?? team) ? { teamId: started.context.teamId ?? team } : {}),
        });
        await host.processAssistantThreadStarted?.(adapter, started, options);
      };
    }
    case "assistant_thread_context_changed": {
      const changed = assistantThreadEvent(event);
      if (changed === undefined) return undefined;
      return async () => {
        await host.processAssistantContextChanged?.(adapter, changed, options);
      };
    }
    case "app_home_opened": {
      const channelId = str(event.channel) ?? "";
      const userId = str(event.user) ?? "";
      const tab = str(event.tab);
      if (tab !== "home" && !agentView) return undefined;
      const entities = entitiesOf(event);
      return async () => {
        if (agentView && tab === "messages") {
          await applySuggestedPrompts(target, {
            channelId,
            userId,
            entities,
            ...(team ? { teamId: team } : {}),
          });
        }
        await host.processAppHomeOpened?.(
          adapter,
          {
            channelId,
            userId,
            ...(tab === undefined ? {} : { tab }),
            ...(event.context === undefined ? {} : { entities }),
            raw: event,
          },
          options,
        );
      };
    }
    case "app_context_changed": {
      const channelId = str(event.channel) ?? "";
      const userId = str(event.user) ?? "";
      const entities = entitiesOf(event);
      return async () => {
        await host.processAppContextChanged?.(
          adapter,
          { channelId, userId, entities, raw: event },
          options,
        );
      };
    }
    case "member_joined_channel": {
      const channelId = str(event.channel);
      const userId = str(event.user);
      if (channelId === undefined || userId === undefined) return undefined;
      const inviterId = str(event.inviter);
      return async () => {
        await host.processMemberJoinedChannel?.(
          adapter,
          { channelId, userId, ...(inviterId ? { inviterId } : {}), raw: event },
          options,
        );
      };
    }
  }
  return undefined;
}
