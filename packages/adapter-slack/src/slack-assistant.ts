import type { SlackApi } from "./api.js";

/** One suggested prompt of an assistant thread: the button label and the message it sends. */
export interface SlackSuggestedPrompt {
  readonly title: string;
  readonly message: string;
}

/** Publishes `view` as `userId`'s App Home tab (`views.publish`). */
export async function publishSlackHomeView(
  api: SlackApi,
  userId: string,
  view: Record<string, unknown>,
): Promise<void> {
  await api.call("views.publish", { user_id: userId, view });
}

/**
 * Sets the prompts offered in an assistant thread (`assistant.threads.setSuggestedPrompts`).
 * `threadTs` may be omitted: in Slack's agent view the prompts sit at the top of the DM.
 */
export async function setSlackSuggestedPrompts(
  api: SlackApi,
  channelId: string,
  threadTs: string | undefined,
  prompts: readonly SlackSuggestedPrompt[],
  title?: string,
): Promise<void> {
  await api.call("assistant.threads.setSuggestedPrompts", {
    channel_id: channelId,
    prompts,
    ...(threadTs ? { thread_ts: threadTs } : {}),
    ...(title ? { title } : {}),
  });
}

/**
 * Sets an assistant thread's status line (`assistant.threads.setStatus`); `loadingMessages`
 * rotate in the status while it shows. Unlike `startTyping`, a failure is thrown to the caller.
 */
export async function setSlackAssistantStatus(
  api: SlackApi,
  channelId: string,
  threadTs: string,
  status: string,
  loadingMessages?: readonly string[],
): Promise<void> {
  await api.call("assistant.threads.setStatus", {
    channel_id: channelId,
    thread_ts: threadTs,
    status,
    ...(loadingMessages && loadingMessages.length > 0 ? { loading_messages: loadingMessages } : {}),
  });
}

/** Sets an assistant thread's title, shown in the app's History tab (`assistant.threads.setTitle`). */
export async function setSlackAssistantTitle(
  api: SlackApi,
  channelId: string,
  threadTs: string,
  title: string,
): Promise<void> {
  await api.call("assistant.threads.setTitle", {
    channel_id: channelId,
    thread_ts: threadTs,
    title,
  });
}
