import { type Tool, tool } from "ai";
import { callAdapter } from "../runtime/adapter-call.js";
import type { ChatBinding, ToolOptions } from "./chat-binding.js";
import { type InputOfTool, postableField, stringField, toolInput } from "./input-schema.js";
import { requireFeature } from "./tool-support.js";

/** Where a posted or edited message is. */
export interface PostedMessage {
  messageId: string;
  threadId: string;
}

const THREAD_ID = () => stringField("Full thread id, including the adapter prefix");
const MESSAGE_ID = (what: string) => stringField(`The platform's id of the message to ${what}`);

const POST_MESSAGE = toolInput("postMessage", { threadId: THREAD_ID(), message: postableField() });

/** Replies in a thread (`thread.post`). */
export const postMessage = (
  chat: ChatBinding,
  { needsApproval = true, guard }: ToolOptions = {},
): Tool<InputOfTool<typeof POST_MESSAGE>, PostedMessage> =>
  tool({
    description:
      "Reply inside an existing thread the bot already knows. threadId is the full id, " +
      "adapter prefix included (e.g. 'slack:C123:1234567890.123456').",
    needsApproval,
    inputSchema: POST_MESSAGE.schema,
    execute: async (input) => {
      const { threadId, message } = POST_MESSAGE.parse(input);
      guard?.(threadId);
      const sent = await chat.thread(threadId).post(message);
      return { messageId: sent.id, threadId: sent.threadId };
    },
  });

const POST_CHANNEL_MESSAGE = toolInput("postChannelMessage", {
  channelId: stringField("Full channel id, including the adapter prefix"),
  message: postableField(),
});

/** Posts at the top level of a channel (`channel.post`). */
export const postChannelMessage = (
  chat: ChatBinding,
  { needsApproval = true, guard }: ToolOptions = {},
): Tool<InputOfTool<typeof POST_CHANNEL_MESSAGE>, PostedMessage> =>
  tool({
    description:
      "Post a new top-level message in a channel, not inside an existing thread. channelId is " +
      "the full id, adapter prefix included (e.g. 'slack:C123ABC').",
    needsApproval,
    inputSchema: POST_CHANNEL_MESSAGE.schema,
    execute: async (input) => {
      const { channelId, message } = POST_CHANNEL_MESSAGE.parse(input);
      guard?.(channelId);
      const sent = await chat.channel(channelId).post(message);
      return { messageId: sent.id, threadId: sent.threadId };
    },
  });

const SEND_DIRECT_MESSAGE = toolInput("sendDirectMessage", {
  userId: stringField("The platform's user id; the adapter is found from it"),
  message: postableField(),
});

/**
 * Opens (or reuses) the direct conversation with a user and posts in it (`chat.openDM`). It
 * targets a user, not a conversation, so the scope guard does not apply: approval is its gate.
 */
export const sendDirectMessage = (
  chat: ChatBinding,
  { needsApproval = true }: ToolOptions = {},
): Tool<InputOfTool<typeof SEND_DIRECT_MESSAGE>, PostedMessage> =>
  tool({
    description:
      "Send a private one-to-one message to a user, opening the direct conversation if needed. " +
      "userId is the platform's id (e.g. 'U123456' on Slack).",
    needsApproval,
    inputSchema: SEND_DIRECT_MESSAGE.schema,
    execute: async (input) => {
      const { userId, message } = SEND_DIRECT_MESSAGE.parse(input);
      const dm = await chat.openDM(userId);
      const sent = await dm.post(message);
      return { messageId: sent.id, threadId: sent.threadId };
    },
  });

const EDIT_MESSAGE = toolInput("editMessage", {
  threadId: THREAD_ID(),
  messageId: MESSAGE_ID("edit"),
  message: postableField(),
});

/** Replaces a message's content (`adapter.editMessage`, capability `editMessage`). */
export const editMessage = (
  chat: ChatBinding,
  { needsApproval = true, guard }: ToolOptions = {},
): Tool<InputOfTool<typeof EDIT_MESSAGE>, PostedMessage> =>
  tool({
    description:
      "Replace the text of a message posted earlier in a thread. Most platforms only let the " +
      "bot edit its own messages.",
    needsApproval,
    inputSchema: EDIT_MESSAGE.schema,
    execute: async (input) => {
      const { threadId, messageId, message } = EDIT_MESSAGE.parse(input);
      guard?.(threadId);
      const { adapter } = chat.thread(threadId);
      const step = `edit message ${messageId} in ${threadId}`;
      requireFeature(adapter, "editMessage", step);
      const edited = await callAdapter(adapter, step, () =>
        adapter.editMessage(threadId, messageId, message),
      );
      return { messageId: edited.id || messageId, threadId: edited.threadId || threadId };
    },
  });

const DELETE_MESSAGE = toolInput("deleteMessage", {
  threadId: THREAD_ID(),
  messageId: MESSAGE_ID("delete"),
});

/** Deletes a message (`adapter.deleteMessage`, capability `deleteMessage`). */
export const deleteMessage = (
  chat: ChatBinding,
  { needsApproval = true, guard }: ToolOptions = {},
): Tool<
  InputOfTool<typeof DELETE_MESSAGE>,
  { deleted: boolean; messageId: string; threadId: string }
> =>
  tool({
    description:
      "Delete a message from a thread. Most platforms only let the bot delete its own messages.",
    needsApproval,
    inputSchema: DELETE_MESSAGE.schema,
    execute: async (input): Promise<{ deleted: boolean; messageId: string; threadId: string }> => {
      const { threadId, messageId } = DELETE_MESSAGE.parse(input);
      guard?.(threadId);
      const { adapter } = chat.thread(threadId);
      const step = `delete message ${messageId} in ${threadId}`;
      requireFeature(adapter, "deleteMessage", step);
      await callAdapter(adapter, step, () => adapter.deleteMessage(threadId, messageId));
      return { deleted: true, messageId, threadId };
    },
  });
