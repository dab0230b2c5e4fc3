import twilio from "twilio";

/** What {@link createTwilioWebhookRequest} builds a request from. */
export interface TwilioWebhookRequestInit {
  /** The public URL Twilio calls (the adapter's `webhookUrl`). */
  readonly url: string;
  /** The account's auth token: the signing key. */
  readonly authToken: string;
  /** Twilio's form parameters (`From`, `To`, `Body`, `MessageSid`, …). */
  readonly params: Readonly<Record<string, string | readonly string[]>>;
  /** Default `POST`; a `GET` carries the parameters in the query string. */
  readonly method?: "POST" | "GET";
  /** Replaces the computed signature (for forged-request tests); `null` sends none. */
  readonly signature?: string | null;
}

function searchOf(params: TwilioWebhookRequestInit["params"]): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of typeof value === "string" ? [value] : value) search.append(name, item);
  }
  return search;
}

/**
 * A web-standard `Request` exactly as Twilio sends a webhook: form-encoded (or a GET with a
 * query), signed with `X-Twilio-Signature` by the `twilio` library's own signer.
 */
export function createTwilioWebhookRequest(init: TwilioWebhookRequestInit): Request {
  const form = searchOf(init.params);
  const method = init.method ?? "POST";
  const url = method === "GET" ? `${init.url}?${form.toString()}` : init.url;
  const signed: Record<string, string | string[]> = {};
  if (method === "POST") {
    for (const [name, value] of Object.entries(init.params)) {
      signed[name] = typeof value === "string" ? value : [...value];
    }
  }
  const signature =
    init.signature === undefined
      ? twilio.getExpectedTwilioSignature(init.authToken, url, signed)
      : init.signature;
  const headers: Record<string, string> = {};
  if (signature !== null) headers["x-twilio-signature"] = signature;
  if (method === "GET") return new Request(url, { method, headers });
  headers["content-type"] = "application/x-www-form-urlencoded";
  return new Request(url, { method, headers, body: form.toString() });
}
