import { type ChatHost, type ReceiveResult, userCacheKey, type WebhookOptions } from "@baton/core";
import type { SlackEvent } from "./parse.js";
import { slackTablesMrkdwn, slackTablesOf } from "./slack-tables.js";
import { detachAfterAnswer, type SlackWebhookTarget } from "./webhook-target.js";

/** The mrkdwn a message names users and channels in: its text, and its tables' cells. */
function namingText(event: SlackEvent): string {
  const tables = slackTablesMrkdwn(slackTablesOf(event));
  return tables === "" ? (event.text ?? "") : `${event.text ?? ""}\n${tables}`;
}

function selfIdsOf(target: SlackWebhookTarget): Set<string> {
  const { botUserId } = target.self();
  return new Set(botUserId === undefined ? [] : [botUserId]);
}

/**
 * After a message delivery was answered: learns its author (a thread participant) and the
 * names of the users and channels it mentions, so later messages read them from cache. Nothing
 * for a duplicate delivery (its first delivery learned them).
 */
export function learnNamesAfterAnswer(
  target: SlackWebhookTarget,
  event: SlackEvent,
  threadId: string,
  result: ReceiveResult,
  options: WebhookOptions,
): void {
  if (target.names === undefined || result.outcome === "duplicate") return;
  // Even reading the text for names waits: it is no part of the answer.
  detachAfterAnswer(
    () => learnNames(target, event, threadId),
    target.logger(),
    "learning user names",
    options,
  );
}

/** Learns what `event` names (see `SlackUserNames.learn`); for work already after the answer. */
export async function learnNames(
  target: SlackWebhookTarget,
  event: SlackEvent,
  threadId: string,
): Promise<void> {
  await target.names?.learn({
    threadId,
    userId: event.user,
    text: namingText(event),
    selfIds: selfIdsOf(target),
  });
}

/**
 * A `user_change`: the profile changed, so the Chat's cached user (in the State, under the
 * delivery's installation in a multi-workspace app) goes, this
 * instance names the user by the new profile, and the reverse name index drops the old names and
 * holds the new ones. Other instances read the old name until their cached entry lapses.
 */
export function userChangeWork(
  target: SlackWebhookTarget,
  host: ChatHost,
  team: string,
  event: SlackEvent & { readonly changed_user_id: string },
): () => Promise<void> {
  const userId = event.changed_user_id;
  // Read here, inside the delivery: a multi-workspace app keeps users per installation.
  const key = userCacheKey(target.adapter.name, userId, target.adapter.userCacheScope?.());
  return async () => {
    await host.getState().delete(key);
    await target.names?.profileChanged(team, userId, event.changed_user);
  };
}
