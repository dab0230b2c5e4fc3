/** The user ids a mock adapter claims unless `userIds` says otherwise: Slack-like `U…` ids. */
export const MOCK_DEFAULT_USER_IDS = /^U[A-Z0-9_]+$/;

/**
 * `matchesUserId`: true when `pattern` matches the whole id. A `g` or `y` pattern is tried from
 * the start every time, so the same id always gets the same answer.
 */
export function mockMatchesUserId(pattern: RegExp, userId: string): boolean {
  if (typeof userId !== "string" || userId === "") return false;
  pattern.lastIndex = 0;
  return pattern.test(userId);
}
