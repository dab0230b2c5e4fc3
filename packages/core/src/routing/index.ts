export {
  type HookFilter,
  matchesActionId,
  matchesCommand,
  matchesEmoji,
  normalizeCommand,
} from "./filters.js";
export { type BotIdentity, detectMention, resolveIsMention } from "./mention.js";
export {
  isMentionForHandlers,
  type MentionTrigger,
  matchingPatternIndexes,
  type Route,
  type RouteHandlers,
  type RouteInput,
  selectRoute,
} from "./route.js";
