import type { TelegramMessageEntity } from "./parse.js";

interface Insertion {
  readonly at: number;
  readonly text: string;
  /** Closing marks come before opening ones at one position; inner ones close first. */
  readonly rank: number;
}

function marksOf(entity: TelegramMessageEntity, inner: string): [string, string] | undefined {
  switch (entity.type) {
    case "bold":
      return ["**", "**"];
    case "italic":
      return ["*", "*"];
    case "strikethrough":
      return ["~~", "~~"];
    case "code":
      return ["`", "`"];
    case "pre":
      return [`\`\`\`${entity.language ?? ""}\n`, inner.endsWith("\n") ? "```" : "\n```"];
    case "text_link":
      return entity.url ? ["[", `](${entity.url})`] : undefined;
    default:
      // url, mention, hashtag, text_mention…: the text already shows what the entity is.
      return undefined;
  }
}

/**
 * The markdown of a Telegram text and its entities: bold, italic, strikethrough, code and pre
 * become markdown marks, `text_link`s become `[text](url)`; URLs, mentions and the rest stay as
 * typed (they are already in the text). Offsets are UTF-16 code units, as Telegram counts them.
 */
export function applyTelegramEntities(
  text: string,
  entities: readonly TelegramMessageEntity[] | undefined,
): string {
  if (!entities || entities.length === 0) return text;
  const insertions: Insertion[] = [];
  for (const entity of entities) {
    const end = entity.offset + entity.length;
    if (entity.offset < 0 || end > text.length || entity.length <= 0) continue;
    const marks = marksOf(entity, text.slice(entity.offset, end));
    if (marks === undefined) continue;
    insertions.push({ at: entity.offset, text: marks[0], rank: 1_000_000 - entity.length });
    insertions.push({ at: end, text: marks[1], rank: entity.length - 1_000_000 });
  }
  insertions.sort((a, b) => b.at - a.at || b.rank - a.rank);
  let out = text;
  for (const insertion of insertions) {
    out = out.slice(0, insertion.at) + insertion.text + out.slice(insertion.at);
  }
  return out;
}

/** The text an entity covers. */
export function entityText(text: string, entity: TelegramMessageEntity): string {
  return text.slice(entity.offset, entity.offset + entity.length);
}
