/** How a POST to a callback URL ended: the HTTP status, and an error when it failed. */
export interface CallbackPostResult {
  readonly status?: number;
  readonly error?: unknown;
}

/** A button's callback, resolved from the token its card was posted with. */
export interface ResolvedCallback {
  /** Where the click is POSTed. */
  readonly url: string;
  /** The button's own `value`, handed to `onAction` handlers in place of the token. */
  readonly originalValue?: string;
}

/**
 * POSTs `payload` as JSON to `url`. Never rejects: a network failure or a status outside 2xx is
 * returned as `error`, so a slow or broken receiver cannot fail the interaction.
 */
export async function postToCallbackUrl(
  url: string,
  payload: Record<string, unknown>,
  fetchFn: typeof fetch = globalThis.fetch,
): Promise<CallbackPostResult> {
  try {
    const response = await fetchFn(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    if (response.ok) return { status: response.status };
    const body = await response.text().catch(() => "");
    const error = new Error(`callback URL answered ${response.status}${body ? `: ${body}` : ""}`);
    return { status: response.status, error };
  } catch (error) {
    return { error };
  }
}
