import {
  type AdapterPostableMessage,
  type EphemeralMessage,
  type UserInfo,
  ValidationError,
} from "@baton/core";
import type { MockCore } from "./mock-core.js";

/** `openDM` (capability `openDM`): the direct thread `{name}:D{userId}:dm`. */
export function mockOpenDM(core: MockCore, userId: string): Promise<string> {
  const ok = typeof userId === "string" && userId !== "" && !userId.includes(":");
  const threadId = ok ? `${core.name}:D${userId}:dm` : `${core.name}:D?:dm`;
  return core.call("openDM", threadId, [userId], "openDM", () => {
    if (!ok) {
      throw new ValidationError('userId must be a non-empty string without ":"', {
        step: "open DM",
      });
    }
    return threadId;
  });
}

/** `postEphemeral` (capability `ephemeral`): a new message id, `usedFallback: false`. */
export function mockPostEphemeral(
  core: MockCore,
  threadId: string,
  userId: string,
  message: AdapterPostableMessage,
): Promise<EphemeralMessage> {
  const args = [threadId, userId, message];
  return core.call("postEphemeral", threadId, args, "ephemeral", () => {
    if (typeof userId !== "string" || userId === "") {
      throw new ValidationError("userId must be a non-empty string", {
        step: "post ephemeral message",
      });
    }
    core.checkPostable(message, "post ephemeral message");
    return { ...core.sent(threadId), usedFallback: false };
  });
}

/** `markAsRead` (capability `readReceipts`). */
export function mockMarkAsRead(core: MockCore, threadId: string, messageId: string): Promise<void> {
  const args = [threadId, messageId];
  return core.call("markAsRead", threadId, args, "readReceipts", () => {
    if (typeof messageId !== "string" || messageId === "") {
      throw new ValidationError("messageId must be a non-empty string", { step: "mark as read" });
    }
  });
}

/** The users `getUser` knows, seeded by tests. */
export class MockUsers {
  private users = new Map<string, UserInfo>();

  /** Adds or replaces users by `userId`. */
  seed(users: readonly UserInfo[]): void {
    for (const user of users) {
      if (typeof user?.userId !== "string" || user.userId === "") {
        throw new ValidationError("userId must be a non-empty string", { step: "seed users" });
      }
      this.users.set(user.userId, { ...user });
    }
  }

  /** `getUser` (capability `getUser`): a copy of the seeded user, or `null`. */
  get(core: MockCore, userId: string): Promise<UserInfo | null> {
    return core.call("getUser", String(userId), [userId], "getUser", () => {
      const user = this.users.get(userId);
      return user === undefined ? null : { ...user };
    });
  }

  clear(): void {
    this.users = new Map();
  }
}
