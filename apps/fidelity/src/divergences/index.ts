import { AI_TOOL_DIVERGENCES } from "./ai.js";
import { CHANNEL_DIVERGENCES } from "./channel.js";
import { CHAT_DIVERGENCES } from "./chat.js";
import type { Divergence } from "./divergence.js";
import { ERROR_DIVERGENCES, MESSAGE_DIVERGENCES, SERIALIZATION_DIVERGENCES } from "./message.js";
import { SLACK_DIVERGENCES } from "./slack.js";
import { PG_DIVERGENCES, REDIS_DIVERGENCES } from "./state.js";
import { TEAMS_DIVERGENCES } from "./teams.js";
import { TELEGRAM_DIVERGENCES } from "./telegram.js";
import { THREAD_DIVERGENCES } from "./thread.js";
import { TWILIO_DIVERGENCES } from "./twilio.js";

/**
 * Every upstream test deliberately not ported (`divergent`) or not portable yet because Baton
 * lacks the feature (`deferred`), with its reason. One file per upstream file or family.
 */
export const DIVERGENCES: readonly Divergence[] = [
  ...CHAT_DIVERGENCES,
  ...THREAD_DIVERGENCES,
  ...CHANNEL_DIVERGENCES,
  ...MESSAGE_DIVERGENCES,
  ...SERIALIZATION_DIVERGENCES,
  ...ERROR_DIVERGENCES,
  ...REDIS_DIVERGENCES,
  ...PG_DIVERGENCES,
  ...AI_TOOL_DIVERGENCES,
  ...TWILIO_DIVERGENCES,
  ...SLACK_DIVERGENCES,
  ...TELEGRAM_DIVERGENCES,
  ...TEAMS_DIVERGENCES,
];
