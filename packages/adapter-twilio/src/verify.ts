import twilio from "twilio";

/** Twilio's signature header. */
export const TWILIO_SIGNATURE_HEADER = "x-twilio-signature";

/**
 * Form parameters as Twilio signs them: a repeated name keeps every value (as an array), so the
 * library sorts `MediaUrl=b&MediaUrl=a` the way Twilio did when it signed.
 */
export type TwilioSignedParams = Record<string, string | string[]>;

/** The parameters of a form body, repeated names kept as arrays. */
export function formParams(body: URLSearchParams): TwilioSignedParams {
  const params: TwilioSignedParams = {};
  for (const [name, value] of body) {
    const seen = params[name];
    if (seen === undefined) params[name] = value;
    else params[name] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}

/** What a signature is checked against. */
export interface TwilioSignatureCheck {
  readonly authToken: string;
  /** The URL Twilio requested, query string included: the configured public URL. */
  readonly url: string;
  /** The `X-Twilio-Signature` header, or null when absent. */
  readonly signature: string | null;
  /** The form body's parameters for a POST; `{}` for a GET (its parameters are in the URL). */
  readonly params: TwilioSignedParams;
}

/**
 * True when the request carries Twilio's signature for exactly this URL and these parameters.
 * The check is the `twilio` library's own `validateRequest` (HMAC-SHA1 over the URL and the
 * sorted parameters, compared in constant time); a missing header is a failure.
 */
export function verifyTwilioSignature(check: TwilioSignatureCheck): boolean {
  if (!check.signature || check.authToken === "") return false;
  return twilio.validateRequest(check.authToken, check.signature, check.url, check.params);
}

/**
 * The URLs a request's signature may be checked against: the configured public URLs (the
 * messaging webhook and the status callback, each signed by Twilio for its own URL) with the
 * request's query string appended when Twilio added one (GET webhooks) — or, only when the user
 * opted in with `trustRequestUrl`, `request.url` itself. Never a URL rebuilt from `Host` or
 * `X-Forwarded-*`. Empty when neither is allowed.
 */
export function signedUrlsFor(
  request: Request,
  configured: readonly (string | undefined)[],
  trustRequestUrl: boolean,
): string[] {
  const urls = configured.filter((url): url is string => url !== undefined);
  if (urls.length === 0) return trustRequestUrl ? [request.url] : [];
  // Twilio signs the URL exactly as configured on the number, so it is used verbatim.
  const search = new URL(request.url).search;
  return urls.map((url) => (search !== "" && !url.includes("?") ? `${url}${search}` : url));
}
