import type { IncomingMessage, ServerResponse } from "node:http";

/** One answer of the fake: an HTTP status and the Bot API's JSON body. */
export type Answer = { status: number; body: unknown };

/** The Bot API's success shape. */
export function ok(result: unknown): Answer {
  return { status: 200, body: { ok: true, result } };
}

/** The Bot API's error shape, with `parameters.retry_after` for 429s. */
export function fail(error_code: number, description: string, retry_after?: number): Answer {
  return {
    status: error_code,
    body: {
      ok: false,
      error_code,
      description,
      ...(retry_after === undefined ? {} : { parameters: { retry_after } }),
    },
  };
}

/** Writes an answer. */
export function send(response: ServerResponse, answer: Answer): void {
  response
    .writeHead(answer.status, { "content-type": "application/json" })
    .end(JSON.stringify(answer.body));
}

/** A call's parameters: JSON, multipart (files as `{ filename, size }`) or a form. */
export async function readParams(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const type = request.headers["content-type"] ?? "";
  if (body.length === 0) return {};
  if (type.startsWith("application/json"))
    return JSON.parse(body.toString("utf8")) as Record<string, unknown>;
  if (type.startsWith("multipart/form-data")) {
    const form = await new Response(body, { headers: { "content-type": type } }).formData();
    const params: Record<string, unknown> = {};
    for (const [name, value] of form as unknown as Iterable<[string, string | File]>) {
      params[name] =
        typeof value === "string"
          ? JSON_FIELDS.has(name)
            ? safeJson(value)
            : value
          : { filename: value.name, size: value.size };
    }
    return params;
  }
  return Object.fromEntries(new URLSearchParams(body.toString("utf8")));
}

const JSON_FIELDS = new Set([
  "reply_markup",
  "reaction",
  "allowed_updates",
  "media",
  "reply_parameters",
]);

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
