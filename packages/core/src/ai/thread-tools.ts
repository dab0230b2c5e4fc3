import { type Tool, tool } from "ai";
import type { ChannelVisibility } from "../contracts/thread-surface-types.js";
import { callAdapter } from "../runtime/adapter-call.js";
import { persistsThreadHistory } from "../runtime/thread-history.js";
import type { ChatBinding, ToolOptions } from "./chat-binding.js";
import {
  enumField,
  type InputOfTool,
  integerField,
  optionalStringField,
  stringField,
  toolInput,
} from "./input-schema.js";
import { persistedPage } from "./persisted-page.js";
import { type ProjectedMessage, projectMessage } from "./project-message.js";
import type { ScopeGuard } from "./read-scope.js";
import { requireFeature, unavailable } from "./tool-support.js";

// Factories carry explicit `Tool<Input, Output>` return types, so the emitted declarations name
// only types that `ai` exports.

/** A page of messages, oldest first within the page. */
export interface MessagePage {
  messages: ProjectedMessage[];
  nextCursor: string | undefined;
}

const THREAD_ID = () => stringField("Full thread id, including the adapter prefix");
const LIMIT = () =>
  integerField("Maximum number of messages to fetch", { min: 1, max: 100, fallback: 20 });
const DIRECTION = () =>
  enumField(
    "'backward' (the default) starts at the newest messages, 'forward' at the oldest",
    ["backward", "forward"] as const,
    "backward",
  );

const FETCH_MESSAGES = toolInput("fetchMessages", {
  threadId: THREAD_ID(),
  limit: LIMIT(),
  cursor: optionalStringField("Pagination cursor from a previous fetchMessages call"),
  direction: DIRECTION(),
});

/**
 * Reads one page of a thread's history, oldest first within the page whichever way it walks
 * (the adapter pages newest first going backward), with `nextCursor` for the next page.
 */
export const fetchMessages = (
  chat: ChatBinding,
  guard?: ScopeGuard,
): Tool<InputOfTool<typeof FETCH_MESSAGES>, MessagePage> =>
  tool({
    description:
      "Read one page of a thread's messages, oldest first within the page. Call it to catch " +
      "up on the conversation before you answer.",
    inputSchema: FETCH_MESSAGES.schema,
    execute: async (input) => {
      const { threadId, limit, cursor, direction } = FETCH_MESSAGES.parse(input);
      guard?.(threadId);
      const thread = chat.thread(threadId);
      const { adapter } = thread;
      const step = `fetch messages of ${threadId}`;
      // Platforms without a history API (SMS, Telegram) have the history the runtime keeps.
      if (persistsThreadHistory(adapter)) {
        return persistedPage(thread, { limit, direction, cursor }, step);
      }
      requireFeature(adapter, "history", step);
      const options = { limit, direction, ...(cursor === undefined ? {} : { cursor }) };
      const page = await callAdapter(adapter, step, () => adapter.fetchMessages(threadId, options));
      const messages = direction === "backward" ? [...page.messages].reverse() : page.messages;
      return { messages: messages.map(projectMessage), nextCursor: page.nextCursor };
    },
  });

/** A thread's metadata, flattened for the model. */
export interface ThreadSummaryInfo {
  id: string;
  channelId: string;
  channelName: string | undefined;
  channelVisibility: ChannelVisibility | undefined;
  isDM: boolean;
}

const THREAD_ONLY = (name: string) => toolInput(name, { threadId: THREAD_ID() });
const FETCH_THREAD = THREAD_ONLY("fetchThread");

/** Reads a thread's metadata through `adapter.fetchThread`; `NotSupportedError` without it. */
export const fetchThread = (
  chat: ChatBinding,
  guard?: ScopeGuard,
): Tool<InputOfTool<typeof FETCH_THREAD>, ThreadSummaryInfo> =>
  tool({
    description:
      "Look up a thread's details: its channel id and name, who can see the channel, and " +
      "whether it is a direct message.",
    inputSchema: FETCH_THREAD.schema,
    execute: async (input): Promise<ThreadSummaryInfo> => {
      const { threadId } = FETCH_THREAD.parse(input);
      guard?.(threadId);
      const { adapter } = chat.thread(threadId);
      const step = `fetch thread ${threadId}`;
      const fetch = adapter.fetchThread;
      if (typeof fetch !== "function") throw unavailable(adapter, "fetchThread", step);
      const info = await callAdapter(adapter, step, () => fetch.call(adapter, threadId));
      return {
        id: info.id,
        channelId: info.channelId,
        channelName: info.channelName,
        channelVisibility: info.channelVisibility,
        isDM: info.isDM ?? false,
      };
    },
  });

/** Who took part in a thread, without the profile fields a model does not need. */
export interface ParticipantList {
  participants: {
    userId: string;
    userName: string;
    fullName: string;
    isBot: boolean | "unknown";
  }[];
}

const GET_PARTICIPANTS = THREAD_ONLY("getThreadParticipants");

/** Lists the thread's participants through `thread.getParticipants()`. */
export const getThreadParticipants = (
  chat: ChatBinding,
  guard?: ScopeGuard,
): Tool<InputOfTool<typeof GET_PARTICIPANTS>, ParticipantList> =>
  tool({
    description:
      "List the people (not bots) who wrote in a thread, each once. Helps tell a one-to-one " +
      "talk from a group discussion.",
    inputSchema: GET_PARTICIPANTS.schema,
    execute: async (input) => {
      const { threadId } = GET_PARTICIPANTS.parse(input);
      guard?.(threadId);
      const participants = await chat.thread(threadId).getParticipants();
      return {
        participants: participants.map((author) => ({
          userId: author.userId,
          userName: author.userName,
          fullName: author.fullName,
          isBot: author.isBot,
        })),
      };
    },
  });

/** The result of a (un)subscribe call. */
export interface SubscriptionResult {
  subscribed: boolean;
  threadId: string;
}

const SUBSCRIBE = THREAD_ONLY("subscribeThread");

/** Follows a thread (`thread.subscribe()`): its later messages reach `onSubscribedMessage`. */
export const subscribeThread = (
  chat: ChatBinding,
  { needsApproval = true, guard }: ToolOptions = {},
): Tool<InputOfTool<typeof SUBSCRIBE>, SubscriptionResult> =>
  tool({
    description:
      "Follow a thread: from now on the bot receives every new message in it, not only the " +
      "ones that mention it.",
    needsApproval,
    inputSchema: SUBSCRIBE.schema,
    execute: async (input): Promise<SubscriptionResult> => {
      const { threadId } = SUBSCRIBE.parse(input);
      guard?.(threadId);
      await chat.thread(threadId).subscribe();
      return { subscribed: true, threadId };
    },
  });

const UNSUBSCRIBE = THREAD_ONLY("unsubscribeThread");

/** Stops following a thread (`thread.unsubscribe()`). */
export const unsubscribeThread = (
  chat: ChatBinding,
  { needsApproval = true, guard }: ToolOptions = {},
): Tool<InputOfTool<typeof UNSUBSCRIBE>, SubscriptionResult> =>
  tool({
    description: "Stop following a thread: afterwards only messages that mention the bot reach it.",
    needsApproval,
    inputSchema: UNSUBSCRIBE.schema,
    execute: async (input): Promise<SubscriptionResult> => {
      const { threadId } = UNSUBSCRIBE.parse(input);
      guard?.(threadId);
      await chat.thread(threadId).unsubscribe();
      return { subscribed: false, threadId };
    },
  });

const START_TYPING = toolInput("startTyping", {
  threadId: THREAD_ID(),
  status: optionalStringField("Optional status text; platforms that have no status line ignore it"),
});

/** Shows the typing indicator (`thread.startTyping(status)`). Never needs approval. */
export const startTyping = (
  chat: ChatBinding,
  guard?: ScopeGuard,
): Tool<InputOfTool<typeof START_TYPING>, { typing: boolean; threadId: string }> =>
  tool({
    description:
      "Show that the bot is typing in a thread. Use it before slow work so people know an " +
      "answer is coming.",
    inputSchema: START_TYPING.schema,
    execute: async (input): Promise<{ typing: boolean; threadId: string }> => {
      const { threadId, status } = START_TYPING.parse(input);
      guard?.(threadId);
      await chat.thread(threadId).startTyping(status);
      return { typing: true, threadId };
    },
  });
