/**
 * The text of one cell of a Slack table (`table` / `data_table` block), as mrkdwn. A cell is a
 * Block Kit element: `raw_text` / `raw_number` / `raw_boolean`, or a `rich_text` tree of sections
 * and inline elements. Mentions and links keep Slack's token form (`<@U…>`, `<#C…>`,
 * `<url|text>`) so the cell is read by the same mrkdwn converter as the message text.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: Json, key: string): string | undefined {
  const field = value[key];
  return typeof field === "string" ? field : undefined;
}

/** A `date` element: its fallback, else the day of its Unix timestamp in UTC (`2024-07-11`). */
function dateText(element: Json): string {
  const fallback = str(element, "fallback");
  if (fallback) return fallback;
  const seconds = element.timestamp;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return "";
  return new Date(seconds * 1_000).toISOString().slice(0, 10);
}

/** The token or text of an inline element whose form is fixed by its type, or undefined. */
function tokenText(element: Json, type: string): string | undefined {
  switch (type) {
    case "link": {
      const url = str(element, "url");
      const text = str(element, "text") ?? "";
      if (!url) return text;
      return text === "" ? `<${url}>` : `<${url}|${text}>`;
    }
    case "emoji": {
      const name = str(element, "name");
      return name ? `:${name}:` : "";
    }
    case "user": {
      const id = str(element, "user_id");
      return id ? `<@${id}>` : "";
    }
    case "channel": {
      const id = str(element, "channel_id");
      return id ? `<#${id}>` : "";
    }
    case "usergroup": {
      const id = str(element, "usergroup_id");
      return id ? `<!subteam^${id}>` : "";
    }
    case "broadcast": {
      const range = str(element, "range");
      return range ? `@${range}` : "";
    }
    case "date":
      return dateText(element);
    case "color":
      return str(element, "value") ?? "";
    case "team":
      return str(element, "team_id") ?? "";
    default:
      return undefined;
  }
}

/** A scalar `value` (`raw_number`, `raw_boolean`, or a string) as text, or undefined. */
function valueText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return undefined;
}

/**
 * The mrkdwn of a table cell or any element inside one; "" for anything without content (so an
 * empty cell stays a cell and the columns stay aligned). Sections of a `rich_text` (and items of
 * a list) go on their own lines; inline elements run together.
 */
export function slackCellText(element: unknown): string {
  if (!isRecord(element)) return "";
  const type = str(element, "type");
  if (!type) return "";
  const token = tokenText(element, type);
  if (token !== undefined) return token;
  const text = str(element, "text") ?? str(element, "label") ?? str(element, "url");
  if (text !== undefined) return text;
  const id = str(element, "file_id") ?? valueText(element.value);
  if (id !== undefined) return id;
  if (!Array.isArray(element.elements)) return "";
  const separator = type === "rich_text" || type === "rich_text_list" ? "\n" : "";
  return element.elements.map(slackCellText).join(separator);
}

/** True when the element or anything inside it is styled bold (a header row, in Slack's tables). */
export function hasBoldText(element: unknown): boolean {
  if (!isRecord(element)) return false;
  if (isRecord(element.style) && element.style.bold === true) return true;
  return Array.isArray(element.elements) && element.elements.some(hasBoldText);
}
