import { BOT_FRAMEWORK_ISSUER, type FakeBotFramework } from "./fake-bot-framework.js";
import { type SigningKey, signJwt } from "./signing-keys.js";

/** How a test token is forged; every field defaults to what the real Bot Framework sends. */
export interface ActivityTokenInit {
  /** Default the fake's app id. */
  readonly audience?: string;
  /** Default `https://api.botframework.com`. */
  readonly issuer?: string;
  /** The `serviceurl` claim; default the activity's `serviceUrl`. `null` leaves it out. */
  readonly serviceUrl?: string | null;
  /** Seconds from now until expiry; negative for an expired token. Default 3600. */
  readonly expiresInSeconds?: number;
  /** Another key (an attacker's): its kid is not in the fake's JWKS. */
  readonly key?: SigningKey;
  /** Clock of the token's `iat`/`nbf`/`exp`, in ms. Default `Date.now()`. */
  readonly nowMs?: number;
}

/** What {@link createTeamsActivityRequest} builds a request from. */
export interface TeamsActivityRequestInit extends ActivityTokenInit {
  /** The fake whose key signs the token. */
  readonly fake: FakeBotFramework;
  /** The activity (JSON object) — or a raw string body for malformed-body tests. */
  readonly activity: Record<string, unknown> | string;
  /** Default `https://bot.example.com/api/teams`. */
  readonly url?: string;
  /** Replaces the `Authorization` header; `null` sends none. */
  readonly authorization?: string | null;
}

/** A Bot Framework service token for an activity, signed by the fake (or `init.key`). */
export function signActivityToken(
  fake: FakeBotFramework,
  serviceUrl: string | undefined,
  init: ActivityTokenInit = {},
): string {
  const nowS = Math.floor((init.nowMs ?? Date.now()) / 1000);
  const expiresIn = init.expiresInSeconds ?? 3600;
  const claims: Record<string, unknown> = {
    iss: init.issuer ?? BOT_FRAMEWORK_ISSUER,
    aud: init.audience ?? fake.appId,
    iat: Math.min(nowS, nowS + expiresIn) - 60,
    nbf: Math.min(nowS, nowS + expiresIn) - 60,
    exp: nowS + expiresIn,
  };
  const claim = init.serviceUrl === undefined ? serviceUrl : init.serviceUrl;
  if (claim !== null && claim !== undefined) claims.serviceurl = claim;
  return signJwt(init.key ?? fake.signingKey, claims);
}

/**
 * A web-standard `Request` exactly as the Bot Framework delivers an activity: JSON, with a
 * `Bearer` service token signed by the fake's key for the activity's `serviceUrl`.
 */
export function createTeamsActivityRequest(init: TeamsActivityRequestInit): Request {
  const body = typeof init.activity === "string" ? init.activity : JSON.stringify(init.activity);
  const serviceUrl =
    typeof init.activity === "string"
      ? undefined
      : (init.activity.serviceUrl as string | undefined);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const authorization =
    init.authorization === undefined
      ? `Bearer ${signActivityToken(init.fake, serviceUrl, init)}`
      : init.authorization;
  if (authorization !== null) headers.authorization = authorization;
  return new Request(init.url ?? "https://bot.example.com/api/teams", {
    method: "POST",
    headers,
    body,
  });
}
