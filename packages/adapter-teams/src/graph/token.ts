/** What a token source returns: the token text and, when known, its expiry (epoch ms). */
export interface ExpiringToken {
  readonly expiration?: number | undefined;
  toString(): string;
}

/** How long before its expiry a cached token is replaced, so no call carries a dying token. */
export const GRAPH_TOKEN_REFRESH_MARGIN_MS = 5 * 60 * 1000;

/**
 * A token source that mints once and reuses the token until `GRAPH_TOKEN_REFRESH_MARGIN_MS`
 * before it expires; concurrent callers share one mint, and a failed mint is not cached. A
 * token with no known expiry is minted per call (nothing says how long it lives).
 */
export function cachedToken(
  mint: () => Promise<ExpiringToken>,
  nowMs: () => number = Date.now,
): () => Promise<string> {
  let cached: { readonly text: string; readonly expiresAtMs: number } | undefined;
  let inFlight: Promise<string> | undefined;
  return async () => {
    if (cached !== undefined && nowMs() < cached.expiresAtMs - GRAPH_TOKEN_REFRESH_MARGIN_MS) {
      return cached.text;
    }
    inFlight ??= mint()
      .then((token) => {
        const text = token.toString();
        cached =
          token.expiration === undefined ? undefined : { text, expiresAtMs: token.expiration };
        return text;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
}
