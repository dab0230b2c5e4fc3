/**
 * How one emoji is spelled on the platforms that name emoji differently: Slack's short names
 * (without colons) and the Unicode characters Google Chat, Teams, Telegram, WhatsApp and most
 * others use. A list gives aliases; the first entry is the one Baton writes, all are recognized.
 */
export interface EmojiFormats {
  slack: string | string[];
  gchat: string | string[];
}

/** Extra or overriding emoji, by normalized name. */
export type EmojiMapConfig = Record<string, EmojiFormats>;

type Spelling = string | readonly string[];

// [normalized name, Slack name(s), Unicode form(s)], grouped as the docs list them.
const GESTURES = [
  ["thumbs_up", ["+1", "thumbsup"], "👍"],
  ["thumbs_down", ["-1", "thumbsdown"], "👎"],
  ["clap", "clap", "👏"],
  ["wave", "wave", "👋"],
  ["pray", "pray", "🙏"],
  ["muscle", "muscle", "💪"],
  ["ok_hand", "ok_hand", "👌"],
  ["point_up", "point_up", "👆"],
  ["point_down", "point_down", "👇"],
  ["point_left", "point_left", "👈"],
  ["point_right", "point_right", "👉"],
  ["raised_hands", "raised_hands", "🙌"],
  ["shrug", "shrug", "🤷"],
  ["facepalm", "facepalm", "🤦"],
] as const satisfies readonly (readonly [string, Spelling, Spelling])[];

const FACES = [
  ["heart", "heart", ["❤️", "❤"]],
  ["smile", ["smile", "slightly_smiling_face"], "😊"],
  ["laugh", ["laughing", "satisfied", "joy"], ["😂", "😆"]],
  ["thinking", "thinking_face", "🤔"],
  ["sad", ["cry", "sad", "white_frowning_face"], "😢"],
  ["cry", "sob", "😭"],
  ["angry", "angry", "😠"],
  ["love_eyes", "heart_eyes", "😍"],
  ["cool", "sunglasses", "😎"],
  ["wink", "wink", "😉"],
  ["surprised", "open_mouth", "😮"],
  ["worried", "worried", "😟"],
  ["confused", "confused", "😕"],
  ["neutral", "neutral_face", "😐"],
  ["sleeping", "sleeping", "😴"],
  ["sick", "nauseated_face", "🤢"],
  ["mind_blown", "exploding_head", "🤯"],
  ["relieved", "relieved", "😌"],
  ["grimace", "grimacing", "😬"],
  ["rolling_eyes", "rolling_eyes", "🙄"],
  ["hug", "hugging_face", "🤗"],
  ["zany", "zany_face", "🤪"],
] as const satisfies readonly (readonly [string, Spelling, Spelling])[];

const SYMBOLS = [
  ["check", ["white_check_mark", "heavy_check_mark"], ["✅", "✔️"]],
  ["x", ["x", "heavy_multiplication_x"], ["❌", "✖️"]],
  ["question", "question", ["❓", "?"]],
  ["exclamation", "exclamation", "❗"],
  ["warning", "warning", "⚠️"],
  ["stop", "octagonal_sign", "🛑"],
  ["info", "information_source", "ℹ️"],
  ["100", "100", "💯"],
  ["fire", "fire", "🔥"],
  ["star", "star", "⭐"],
  ["sparkles", "sparkles", "✨"],
  ["lightning", "zap", "⚡"],
  ["boom", "boom", "💥"],
  ["eyes", "eyes", "👀"],
  ["green_circle", "large_green_circle", "🟢"],
  ["yellow_circle", "large_yellow_circle", "🟡"],
  ["red_circle", "red_circle", "🔴"],
  ["blue_circle", "large_blue_circle", "🔵"],
  ["white_circle", "white_circle", "⚪"],
  ["black_circle", "black_circle", "⚫"],
] as const satisfies readonly (readonly [string, Spelling, Spelling])[];

const OBJECTS = [
  ["rocket", "rocket", "🚀"],
  ["party", ["tada", "partying_face"], ["🎉", "🥳"]],
  ["confetti", "confetti_ball", "🎊"],
  ["balloon", "balloon", "🎈"],
  ["gift", "gift", "🎁"],
  ["trophy", "trophy", "🏆"],
  ["medal", "first_place_medal", "🥇"],
  ["lightbulb", "bulb", "💡"],
  ["gear", "gear", "⚙️"],
  ["wrench", "wrench", "🔧"],
  ["hammer", "hammer", "🔨"],
  ["bug", "bug", "🐛"],
  ["link", "link", "🔗"],
  ["lock", "lock", "🔒"],
  ["unlock", "unlock", "🔓"],
  ["key", "key", "🔑"],
  ["pin", "pushpin", "📌"],
  ["memo", "memo", "📝"],
  ["clipboard", "clipboard", "📋"],
  ["calendar", "calendar", "📅"],
  ["clock", "clock1", "🕐"],
  ["hourglass", "hourglass", "⏳"],
  ["bell", "bell", "🔔"],
  ["megaphone", "mega", "📢"],
  ["speech_bubble", "speech_balloon", "💬"],
  ["email", "email", "📧"],
  ["inbox", "inbox_tray", "📥"],
  ["outbox", "outbox_tray", "📤"],
  ["package", "package", "📦"],
  ["folder", "file_folder", "📁"],
  ["file", "page_facing_up", "📄"],
  ["chart_up", "chart_with_upwards_trend", "📈"],
  ["chart_down", "chart_with_downwards_trend", "📉"],
  ["coffee", "coffee", "☕"],
  ["pizza", "pizza", "🍕"],
  ["beer", "beer", "🍺"],
] as const satisfies readonly (readonly [string, Spelling, Spelling])[];

const NATURE = [
  ["arrow_up", "arrow_up", "⬆️"],
  ["arrow_down", "arrow_down", "⬇️"],
  ["arrow_left", "arrow_left", "⬅️"],
  ["arrow_right", "arrow_right", "➡️"],
  ["refresh", "arrows_counterclockwise", "🔄"],
  ["sun", "sunny", "☀️"],
  ["cloud", "cloud", "☁️"],
  ["rain", "rain_cloud", "🌧️"],
  ["snow", "snowflake", "❄️"],
  ["rainbow", "rainbow", "🌈"],
] as const satisfies readonly (readonly [string, Spelling, Spelling])[];

const ROWS = [...GESTURES, ...FACES, ...SYMBOLS, ...OBJECTS, ...NATURE];

/** The normalized names Baton knows on every platform (`emoji.<name>` has each). */
export type WellKnownEmoji = (typeof ROWS)[number][0];

/** Every {@link WellKnownEmoji}, in the docs' order. */
export const WELL_KNOWN_EMOJI: readonly WellKnownEmoji[] = ROWS.map(([name]) => name);

const copy = (spelling: Spelling): string | string[] =>
  typeof spelling === "string" ? spelling : [...spelling];

/** The platform spellings of every well-known emoji, by normalized name. */
export const DEFAULT_EMOJI_MAP: Record<string, EmojiFormats> = Object.fromEntries(
  ROWS.map(([name, slack, unicode]) => [name, { slack: copy(slack), gchat: copy(unicode) }]),
);

/** The spellings in `spelling` as a list, the preferred one first. */
export function spellingsOf(spelling: string | readonly string[]): readonly string[] {
  return typeof spelling === "string" ? [spelling] : spelling;
}
