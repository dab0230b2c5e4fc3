import { divergencesOf } from "./divergence.js";
import { NO_CALLBACK_URL, NO_SLACK_RECIPIENT_TEAM } from "./reasons.js";

const THREAD = ["ThreadImpl"];

/** `packages/chat/src/thread.test.ts`: the Thread handle. */
export const THREAD_DIVERGENCES = divergencesOf("packages/chat/src/thread.test.ts", [
  {
    kind: "deferred",
    titles: [
      "should pass stream options from Slack current message context via team_id",
      "should pass stream options from Slack current message context via team string",
      "should pass stream options from Slack current message context via team.id",
      "should pass stream options from Slack current message context via user.team_id fallback",
    ],
    reason: NO_SLACK_RECIPIENT_TEAM,
  },
]);
