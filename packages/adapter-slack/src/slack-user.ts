import type { Logger, UserInfo } from "@baton/core";
import type { SlackApi, SlackResponse } from "./api.js";
import { SlackApiError } from "./errors.js";

type Json = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * A user from `users.info`: the display name (else the real name, else the handle) as
 * `userName`, the real name, email and avatar when Slack has them. `null` for an unknown user and
 * for a failed look-up alike (upstream's contract), the failure logged.
 */
export async function fetchSlackUser(
  api: SlackApi,
  logger: Logger,
  userId: string,
): Promise<UserInfo | null> {
  return (await fetchSlackUserRecord(api, logger, userId))?.info ?? null;
}

/** {@link fetchSlackUser} with the user's handle as well (for the reverse name index). */
export async function fetchSlackUserRecord(
  api: SlackApi,
  logger: Logger,
  userId: string,
): Promise<SlackUserRecord | null> {
  let answer: SlackResponse;
  try {
    answer = await api.call("users.info", { user: userId });
  } catch (error) {
    if (!(error instanceof SlackApiError && error.slackError === "user_not_found")) {
      logger.warn("slack: users.info failed", { error, userId });
    }
    return null;
  }
  return slackUserOf(userId, answer.user);
}

/** A user as Slack describes one (`users.info`'s `user`, a `user_change` event's `user`). */
export interface SlackUserRecord {
  readonly info: UserInfo;
  /** The user's handle (`name`), which people may also type as `@handle`. */
  readonly handle: string | undefined;
}

/**
 * The Baton view of Slack's user object: the display name (else the real name, else the
 * handle, else the id) as `userName`, real name, email and avatar when present, and the handle.
 */
export function slackUserOf(userId: string, raw: unknown): SlackUserRecord {
  const user = (typeof raw === "object" && raw !== null ? raw : {}) as Json;
  const profile = (user.profile ?? {}) as Json;
  const fullName = text(profile.real_name) ?? text(user.real_name);
  const email = text(profile.email);
  const avatarUrl = text(profile.image_192) ?? text(profile.image_72);
  const handle = text(user.name);
  const info: UserInfo = {
    userId,
    userName: text(profile.display_name) ?? fullName ?? handle ?? userId,
    ...(fullName === undefined ? {} : { fullName }),
    ...(email === undefined ? {} : { email }),
    ...(avatarUrl === undefined ? {} : { avatarUrl }),
    isBot: user.is_bot === true,
  };
  return { info, handle };
}
