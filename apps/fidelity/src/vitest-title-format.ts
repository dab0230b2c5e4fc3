/**
 * Formats `it.each` / `describe.each` titles the way vitest 4 does (`formatTitle` in
 * `@vitest/runner`): `%#` and `%$` are the case index (0- and 1-based), each `%s %d %i %f %j %o %O
 * %c` takes the next item, and `$name` / `$a.b` / `$0` read from the case object or array and show
 * the value as vitest's `objDisplay` would (strings in single quotes, cut at 40 characters).
 *
 * Values are those {@link literalValue} can read from source: strings, numbers, booleans, `null`,
 * `undefined`, bigints, arrays and plain objects. Where vitest's output could not be reproduced
 * exactly (a long array or object shown through `$name`), {@link formatEachTitle} returns
 * `undefined` and the caller keeps the template.
 */

const FORMAT_PATTERN = /%[sdjifoOc%]/g;
const ATTRIBUTE_PATTERN = /\$([$\w.]+)/g;
/** vitest's default `chaiConfig.truncateThreshold`, used by `objDisplay`. */
const TRUNCATE_AT = 40;

class CannotFormat extends Error {}

/** The title vitest gives case `index` (0-based) with `items` of template `template`. */
export function formatEachTitle(
  template: string,
  items: readonly unknown[],
  index: number,
): string | undefined {
  try {
    return formatTitle(template, items, index);
  } catch (error) {
    if (error instanceof CannotFormat) return undefined;
    throw error;
  }
}

/** True when a title has placeholders `it.each` would fill. */
export function hasPlaceholders(title: string): boolean {
  return /%[sdjifoOc#$]/.test(title) || /\$[\w$]/.test(title);
}

/**
 * A regular expression matching every title `template` can produce: each placeholder matches any
 * non-empty text. Used to match a template kept unexpanded on one side against titles on the other.
 */
export function placeholderPattern(template: string): RegExp {
  let source = "";
  let last = 0;
  for (const match of template.matchAll(/%%|%[sdjifoOc#$]|\$[$\w.]+/g)) {
    source += escapeRegExp(template.slice(last, match.index));
    source += match[0] === "%%" ? "%" : "(?:.+?)";
    last = match.index + match[0].length;
  }
  source += escapeRegExp(template.slice(last));
  return new RegExp(`^${source}$`, "s");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function formatTitle(original: string, items: readonly unknown[], index: number): string {
  let template = original;
  if (template.includes("%#") || template.includes("%$")) {
    template = template
      .replace(/%%/g, "__escaped_percent__")
      .replace(/%#/g, `${index}`)
      .replace(/%\$/g, `${index + 1}`)
      .replace(/__escaped_percent__/g, "%%");
  }
  const count = template.split("%").length - 1;
  const isObjectItem = isPlainObject(items[0]);
  let output = "";
  let next = 0;
  let last = 0;
  for (const match of template.matchAll(FORMAT_PATTERN)) {
    output += formatAttributes(template.slice(last, match.index), items, isObjectItem);
    output += next < count ? formatOne(match[0], items[next++]) : match[0];
    last = match.index + match[0].length;
  }
  return output + formatAttributes(template.slice(last), items, isObjectItem);
}

function formatAttributes(text: string, items: readonly unknown[], isObjectItem: boolean): string {
  return text.replace(ATTRIBUTE_PATTERN, (whole, key: string) => {
    const isArrayKey = /^\d+$/.test(key);
    if (!isObjectItem && !isArrayKey) return whole;
    const arrayElement = isArrayKey ? attribute(items, key) : undefined;
    const value = isObjectItem ? attribute(items[0], key, arrayElement) : arrayElement;
    return display(value);
  });
}

/** `objectAttr` of `@vitest/utils`: reads `a.b[0]`-style paths. */
function attribute(source: unknown, path: string, fallback?: unknown): unknown {
  const parts = path.replace(/\[(\d+)\]/g, ".$1").split(".");
  let result: unknown = source;
  for (const part of parts) {
    result = result === null || result === undefined ? undefined : Object(result)[part];
    if (result === undefined) return fallback;
  }
  return result;
}

/** `format(placeholder, value)` of `@vitest/utils` for one placeholder and one value. */
function formatOne(placeholder: string, value: unknown): string {
  switch (placeholder) {
    case "%%":
      // vitest passes the item along, and `format` appends an unused argument after a space.
      return `% ${value === null || typeof value !== "object" ? String(value) : inspect(value)}`;
    case "%s":
      if (typeof value === "bigint") return `${value}n`;
      if (Object.is(value, -0)) return "-0";
      if (Array.isArray(value)) return String(value);
      if (typeof value === "object" && value !== null) return inspect(value);
      return String(value);
    case "%d":
      return typeof value === "bigint" ? `${value}n` : Number(value).toString();
    case "%i":
      return typeof value === "bigint" ? `${value}n` : Number.parseInt(String(value)).toString();
    case "%f":
      return Number.parseFloat(String(value)).toString();
    case "%j":
      return JSON.stringify(value) ?? "undefined";
    case "%o":
    case "%O":
      return inspect(value);
    case "%c":
      return "";
    default:
      return placeholder;
  }
}

/** `objDisplay` of `@vitest/utils` with its default truncation at 40 characters. */
function display(value: unknown): string {
  const shown = inspect(value);
  if (shown.length <= TRUNCATE_AT) return shown;
  if (typeof value === "string" && shown === quote(value, false)) {
    return `'${value.slice(0, TRUNCATE_AT - 3)}…'`;
  }
  // loupe shortens long arrays, objects and escaped strings element by element; not reproduced.
  throw new CannotFormat();
}

/** `inspect` of loupe, as vitest calls it, for literal values. */
function inspect(value: unknown): string {
  if (typeof value === "string") return quote(value, true);
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || value === undefined || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    return value.length === 0 ? "[]" : `[ ${value.map((item) => inspect(item)).join(", ")} ]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const shown = entries.map(([key, item]) => `${inspectKey(key)}: ${inspect(item)}`);
    return `{ ${shown.join(", ")} }`;
  }
  throw new CannotFormat();
}

function inspectKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key, true);
}

const ESCAPES: Readonly<Record<string, string>> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
  "'": "\\'",
  "\\": "\\\\",
};

function quote(text: string, escape: boolean): string {
  if (!escape) return `'${text}'`;
  const escaped = text.replace(/['\\\u0000-\u001f\u007f-\u009f]/g, (char) => {
    return ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return `'${escaped}'`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
