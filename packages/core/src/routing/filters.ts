import type { ReactionEvent } from "../model/index.js";

/**
 * The filter a hook was registered with: one value, several, or none. `undefined` and an empty
 * list both mean "every event", as upstream treats `onAction([], handler)` like a catch-all.
 */
export type HookFilter = string | readonly string[] | undefined;

function filterValues(filter: HookFilter): readonly string[] {
  if (filter === undefined) return [];
  return typeof filter === "string" ? [filter] : filter;
}

/**
 * Whether an `onReaction` filter selects `event`. No filter (or an empty list) selects every
 * reaction; otherwise a filter value selects the reaction when it equals the normalized emoji name
 * (`thumbs_up`) or the platform's raw spelling (`+1`, Teams' `like`). Comparison is exact, as in
 * upstream `chat` 4.38.1 (dist/index.js, `handleReactionEvent`). Pure.
 */
export function matchesEmoji(
  filter: HookFilter,
  event: Pick<ReactionEvent, "emoji" | "rawEmoji">,
): boolean {
  const values = filterValues(filter);
  if (values.length === 0) return true;
  return values.some((value) => value === event.emoji || value === event.rawEmoji);
}

/**
 * Whether an `onAction` filter selects the action `actionId`. No filter (or an empty list) selects
 * every action; otherwise the id must equal one of the filter's ids exactly (ids are the bot's own
 * strings, so no normalization applies). Pure.
 */
export function matchesActionId(filter: HookFilter, actionId: string): boolean {
  const values = filterValues(filter);
  if (values.length === 0) return true;
  return values.includes(actionId);
}

/**
 * The canonical form of a slash command name: surrounding whitespace trimmed, lower-cased, with
 * exactly the one leading `/` it had or gets (`" Deploy "` → `/deploy`, `/help` → `/help`).
 * Upstream adds the missing `/` to a registered name; trimming and lower-casing go further so a
 * filter written `"Deploy"` still matches the `/deploy` that platforms send (Slack and Telegram
 * command names are lower case). Idempotent and pure. An empty name becomes `/`; rejecting it is
 * the handler registry's job, at configuration time.
 */
export function normalizeCommand(command: string): string {
  const name = command.trim().toLowerCase();
  return name.startsWith("/") ? name : `/${name}`;
}

/**
 * Whether an `onSlashCommand` filter selects `command`. No filter (or an empty list) selects every
 * command; otherwise both sides are compared in their {@link normalizeCommand} form, so `help`,
 * `/help` and `/Help` all select the command `/help`. Pure.
 */
export function matchesCommand(filter: HookFilter, command: string): boolean {
  const values = filterValues(filter);
  if (values.length === 0) return true;
  const wanted = normalizeCommand(command);
  return values.some((value) => normalizeCommand(value) === wanted);
}
