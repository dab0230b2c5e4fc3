import { type Tool, tool } from "ai";
import type { ChatBinding } from "./chat-binding.js";
import { type InputOfTool, stringField, toolInput } from "./input-schema.js";

/** A user's profile as `getUser` hands it to the model. */
export interface ToolUserProfile {
  userId: string;
  userName: string;
  fullName: string;
  email: string | undefined;
  isBot: boolean;
  avatarUrl: string | undefined;
}

const GET_USER = toolInput("getUser", {
  userId: stringField("The platform's user id; the adapter is found from it"),
});

/**
 * Looks a user up (`chat.getUser`); `null` when the platform knows no such user. Needs approval
 * by default (chat 4.41): any user id can be asked for, so it can reveal profiles (emails)
 * outside the conversation, and the scope guard cannot confine a user id.
 */
export const getUser = (
  chat: ChatBinding,
  needsApproval = true,
): Tool<InputOfTool<typeof GET_USER>, ToolUserProfile | null> =>
  tool({
    description:
      "Look up a user's profile by the platform's user id (e.g. 'U123456' on Slack, " +
      "'users/123' on Google Chat). Answers null for an unknown user.",
    needsApproval,
    inputSchema: GET_USER.schema,
    execute: async (input) => {
      const { userId } = GET_USER.parse(input);
      const user = await chat.getUser(userId);
      if (!user) return null;
      return {
        userId: user.userId,
        userName: user.userName,
        fullName: user.fullName ?? user.userName,
        email: user.email,
        isBot: user.isBot ?? false,
        avatarUrl: user.avatarUrl,
      };
    },
  });
