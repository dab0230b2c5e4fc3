import { type Tool, tool } from "ai";
import type { ChatBinding, ToolOptions } from "./chat-binding.js";
import { type InputOfTool, stringField, toolInput } from "./input-schema.js";

/** What a reaction tool did: `added` or `removed` is true, with the reaction's target. */
export type ReactionResult<TVerb extends "added" | "removed"> = { [K in TVerb]: boolean } & {
  emoji: string;
  messageId: string;
  threadId: string;
};

const REACTION_INPUT = (name: string, messageWhat: string, emojiWhat: string) =>
  toolInput(name, {
    threadId: stringField("Full thread id, including the adapter prefix"),
    messageId: stringField(`The platform's id of the message to ${messageWhat}`),
    emoji: stringField(emojiWhat),
  });

const ADD_REACTION = REACTION_INPUT(
  "addReaction",
  "react to",
  "Emoji name, e.g. 'thumbs_up', 'heart', 'white_check_mark', or the platform's own shortcode",
);

/** Adds the bot's reaction to a message of a thread (`thread.addReaction`). */
export const addReaction = (
  chat: ChatBinding,
  { needsApproval = true, guard }: ToolOptions = {},
): Tool<InputOfTool<typeof ADD_REACTION>, ReactionResult<"added">> =>
  tool({
    description:
      "React to a message with an emoji. Prefer common names such as 'thumbs_up', 'heart' or " +
      "'check'; a platform's own shortcode works too.",
    needsApproval,
    inputSchema: ADD_REACTION.schema,
    execute: async (input): Promise<ReactionResult<"added">> => {
      const { threadId, messageId, emoji } = ADD_REACTION.parse(input);
      guard?.(threadId);
      await chat.thread(threadId).addReaction(messageId, emoji);
      return { added: true, emoji, messageId, threadId };
    },
  });

const REMOVE_REACTION = REACTION_INPUT(
  "removeReaction",
  "take the reaction off",
  "Emoji name or shortcode the bot reacted with before",
);

/** Removes the bot's reaction from a message of a thread (`thread.removeReaction`). */
export const removeReaction = (
  chat: ChatBinding,
  { needsApproval = true, guard }: ToolOptions = {},
): Tool<InputOfTool<typeof REMOVE_REACTION>, ReactionResult<"removed">> =>
  tool({
    description: "Take back an emoji reaction the bot added to a message earlier.",
    needsApproval,
    inputSchema: REMOVE_REACTION.schema,
    execute: async (input): Promise<ReactionResult<"removed">> => {
      const { threadId, messageId, emoji } = REMOVE_REACTION.parse(input);
      guard?.(threadId);
      await chat.thread(threadId).removeReaction(messageId, emoji);
      return { removed: true, emoji, messageId, threadId };
    },
  });
