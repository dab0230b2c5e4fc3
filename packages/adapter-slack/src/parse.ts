/** A Slack file shared in a message (the fields the adapter reads). */
export interface SlackFile {
  readonly id?: string;
  readonly name?: string;
  readonly mimetype?: string;
  readonly url_private?: string;
  readonly size?: number;
  /** An image's pixel size, as Slack reports it. */
  readonly original_w?: number;
  readonly original_h?: number;
}

/** An Events API inner event (the fields the adapter reads; Slack sends more). */
export interface SlackEvent {
  readonly type: string;
  readonly subtype?: string;
  readonly user?: string;
  readonly bot_id?: string;
  readonly username?: string;
  readonly text?: string;
  readonly ts?: string;
  readonly thread_ts?: string;
  readonly event_ts?: string;
  readonly channel?: string;
  readonly channel_type?: string;
  readonly team?: string;
  readonly files?: readonly SlackFile[];
  readonly edited?: { readonly user?: string; readonly ts?: string };
  readonly message?: SlackEvent;
  readonly previous_message?: SlackEvent;
  readonly deleted_ts?: string;
  readonly reaction?: string;
  readonly item?: { readonly type?: string; readonly channel?: string; readonly ts?: string };
  /** `user_change`: the id of the user whose profile changed (Slack sends the user object). */
  readonly changed_user_id?: string;
  /** `user_change`: the user's new profile, as Slack sent it (`users.info`'s user shape). */
  readonly changed_user?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/** The Events API envelope. */
export interface SlackEventCallback {
  readonly kind: "event";
  readonly teamId: string;
  readonly eventId: string | undefined;
  readonly event: SlackEvent;
  readonly raw: Record<string, unknown>;
}

/** Slack's URL check when the Request URL is set; answered with its challenge. */
export interface SlackUrlVerification {
  readonly kind: "url_verification";
  readonly challenge: string;
}

/** A slash command (form body). */
export interface SlackSlashCommand {
  readonly kind: "command";
  readonly params: Readonly<Record<string, string>>;
}

/** An interactivity payload (`payload=` form field, JSON inside). */
export interface SlackInteraction {
  readonly kind: "interaction";
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/** Slack's SSL check of a slash command URL. */
export interface SlackSslCheck {
  readonly kind: "ssl_check";
}

/** A verified body the adapter does not act on (`app_rate_limited`, unknown types). */
export interface SlackOther {
  readonly kind: "other";
  readonly type: string;
}

/** Every verified body, told apart by `kind`. */
export type SlackWebhookPayload =
  | SlackEventCallback
  | SlackUrlVerification
  | SlackSlashCommand
  | SlackInteraction
  | SlackSslCheck
  | SlackOther;

/** Why a verified body cannot be read; answered 400. */
export class SlackWebhookParseError extends Error {
  override readonly name = "SlackWebhookParseError";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SlackWebhookParseError(`${what} is not JSON`);
  }
  if (!isRecord(value)) throw new SlackWebhookParseError(`${what} is not a JSON object`);
  return value;
}

const STRING_FIELDS = [
  "subtype",
  "user",
  "bot_id",
  "username",
  "text",
  "ts",
  "thread_ts",
  "event_ts",
  "channel",
  "channel_type",
  "team",
  "reaction",
  "deleted_ts",
] as const;

function strings(value: unknown, keys: readonly string[]): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, string> = {};
  for (const key of keys) if (typeof value[key] === "string") out[key] = value[key];
  return out;
}

/**
 * The event with every field the adapter reads checked for its type: a signed body is Slack's,
 * but a field of the wrong type (a future API change, a proxy) must not throw deep in routing.
 * Wrong-typed fields are dropped; the rest of the event is kept as sent.
 */
function sanitizeEvent(event: Record<string, unknown>, depth = 0): SlackEvent {
  const clean: Record<string, unknown> = { ...event };
  delete clean.changed_user_id;
  delete clean.changed_user;
  if (event.type === "user_change" && isRecord(event.user) && typeof event.user.id === "string") {
    clean.changed_user_id = event.user.id;
    clean.changed_user = event.user;
  }
  for (const key of STRING_FIELDS) if (typeof clean[key] !== "string") delete clean[key];
  const files = Array.isArray(event.files) ? event.files.filter(isRecord) : undefined;
  if (files === undefined) delete clean.files;
  else
    clean.files = files.map((file) => ({
      ...strings(file, ["id", "name", "mimetype", "url_private"]),
      ...(typeof file.size === "number" ? { size: file.size } : {}),
      ...(typeof file.original_w === "number" ? { original_w: file.original_w } : {}),
      ...(typeof file.original_h === "number" ? { original_h: file.original_h } : {}),
    }));
  const item = strings(event.item, ["type", "channel", "ts"]);
  if (item === undefined) delete clean.item;
  else clean.item = item;
  const edited = strings(event.edited, ["user", "ts"]);
  if (edited === undefined) delete clean.edited;
  else clean.edited = edited;
  for (const key of ["message", "previous_message"] as const) {
    const inner = event[key];
    if (depth === 0 && isRecord(inner)) clean[key] = sanitizeEvent(inner, 1);
    else delete clean[key];
  }
  return { ...clean, type: String(event.type) } as SlackEvent;
}

function parseForm(body: string): SlackWebhookPayload {
  const form = new URLSearchParams(body);
  const payload = form.get("payload");
  if (payload !== null) {
    const parsed = parseJson(payload, "the payload field");
    if (typeof parsed.type !== "string") {
      throw new SlackWebhookParseError("the interaction payload has no type");
    }
    return { kind: "interaction", type: parsed.type, payload: parsed };
  }
  if (form.get("ssl_check") === "1") return { kind: "ssl_check" };
  if (form.get("command") !== null) {
    return { kind: "command", params: Object.fromEntries(form) };
  }
  throw new SlackWebhookParseError("a form body needs a payload or a command field");
}

/**
 * Reads a verified Slack request body: JSON for the Events API (`event_callback`,
 * `url_verification`), a form for slash commands and interactivity. Throws
 * {@link SlackWebhookParseError} for a body Slack would not send.
 */
export function parseSlackWebhookBody(body: string, contentType: string): SlackWebhookPayload {
  if (contentType === "application/x-www-form-urlencoded") return parseForm(body);
  const json = parseJson(body, "the body");
  const type = json.type;
  if (type === "url_verification") {
    if (typeof json.challenge !== "string") {
      throw new SlackWebhookParseError("url_verification has no challenge");
    }
    return { kind: "url_verification", challenge: json.challenge };
  }
  if (type === "event_callback") {
    const event = json.event;
    if (!isRecord(event) || typeof event.type !== "string") {
      throw new SlackWebhookParseError("event_callback has no event with a type");
    }
    return {
      kind: "event",
      teamId: typeof json.team_id === "string" ? json.team_id : "",
      eventId: typeof json.event_id === "string" ? json.event_id : undefined,
      event: sanitizeEvent(event),
      raw: json,
    };
  }
  return { kind: "other", type: typeof type === "string" ? type : "unknown" };
}
