import type { Adapter, WebhookOptions } from "../contracts/adapter.js";

/** One webhook entry point per adapter, as `chat.webhooks.<name>(request, options)`. */
export type WebhookHandlers = Record<
  string,
  (request: Request, options?: WebhookOptions) => Promise<Response>
>;

/**
 * The `webhooks` map of a `Chat`: each handler initializes the `Chat` first (shared, retried
 * after a failure), then lets the adapter verify, parse and answer the request.
 */
export function webhookHandlers(
  adapters: Readonly<Record<string, Adapter>>,
  initialize: () => Promise<void>,
): WebhookHandlers {
  return Object.fromEntries(
    Object.entries(adapters).map(([name, adapter]) => [
      name,
      async (request: Request, options?: WebhookOptions) => {
        await initialize();
        return adapter.handleWebhook(request, options);
      },
    ]),
  );
}
