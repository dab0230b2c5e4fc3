import type { UserInfo } from "@baton/core";
import type { TeamsGraphUser } from "./client.js";

/** Core's `UserInfo` for a Graph user; `mail` is the email, else the `userPrincipalName`. */
export function userFromGraph(userId: string, user: TeamsGraphUser): UserInfo {
  const name = user.displayName ?? user.userPrincipalName ?? userId;
  const email = user.mail ?? user.userPrincipalName ?? undefined;
  return {
    userId,
    userName: name,
    fullName: name,
    ...(email === undefined || email === null ? {} : { email }),
    isBot: false,
  };
}
