import { type EmojiValue, getEmoji } from "@baton/core";

/**
 * Baton emoji names → Teams reaction ids (upstream's table): Teams' six classic reactions by
 * name, the newer ones by their `<codepoint>_<name>` ids.
 */
const TO_TEAMS: Record<string, string> = {
  thumbs_up: "like",
  heart: "heart",
  laugh: "laugh",
  surprised: "surprised",
  sad: "sad",
  angry: "angry",
  check: "2705_whiteheavycheckmark",
  eyes: "1f440_eyes",
  pin: "1f4cc_pushpin",
  rocket: "launch",
  thinking: "think",
  x: "274c_crossmark",
};

const FROM_TEAMS: Record<string, string> = Object.fromEntries(
  Object.entries(TO_TEAMS).map(([name, id]) => [id, name]),
);

/** The Teams reaction id for an emoji name; an unknown name is sent as given (a raw Teams id). */
export function toTeamsReaction(emoji: string | EmojiValue): string {
  const name = typeof emoji === "string" ? emoji : emoji.name;
  return TO_TEAMS[name] ?? name;
}

/** The emoji a Teams reaction id stands for (its own id when Baton has no name for it). */
export function fromTeamsReaction(reaction: string): EmojiValue {
  return getEmoji(FROM_TEAMS[reaction] ?? reaction);
}
