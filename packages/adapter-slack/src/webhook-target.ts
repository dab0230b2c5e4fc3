import type { Adapter, ChatHost, Logger, WebhookOptions } from "@baton/core";
import type { SlackApi } from "./api.js";
import type { SlackInstallationRouting } from "./installation-routing.js";
import type { SlackSelf } from "./message.js";
import type { ResolvedSlackOptions } from "./options.js";
import type { SlackUserNames } from "./user-names.js";

/** What the webhook needs from its adapter. */
export interface SlackWebhookTarget {
  readonly adapter: Adapter;
  /** A multi-workspace app's installations: each delivery runs with its workspace's token. */
  readonly installations?: SlackInstallationRouting;
  readonly host: ChatHost | undefined;
  readonly options: ResolvedSlackOptions;
  /** The Web API, for calls the webhook makes itself (an assistant thread's prompts). */
  readonly api: SlackApi;
  /** User and channel names: read from cache before the answer, learned after it. */
  readonly names?: SlackUserNames;
  logger(): Logger;
  /** Who the bot is (its user id and bot id, once known). */
  self(): SlackSelf;
  /** The workspace the bot's token belongs to, once known (`auth.test`). */
  teamId(): string;
  /** The thread of the message `ts` in `channel` (a Web API look-up; run after the answer). */
  threadOfMessage(channel: string, ts: string): Promise<string>;
}

/** Runs `work` after the answer, handed to the host's `waitUntil`; a failure is only logged. */
export function detach(
  work: () => Promise<unknown>,
  logger: Logger,
  what: string,
  options: WebhookOptions,
): void {
  const task = work().catch((error: unknown) => {
    logger.error(`slack: ${what} failed`, { error });
  });
  options.waitUntil?.(task);
}

/**
 * Like {@link detach}, but `work` starts one event-loop turn later, after the answer left, so a
 * burst of deliveries does not do it in the same microtask waves as the answers. Only for work
 * that dispatches nothing (learning names): an event handed to the host must be admitted before
 * the answer, or a shutdown in between would refuse it after Slack was told 200.
 */
export function detachAfterAnswer(
  work: () => Promise<unknown>,
  logger: Logger,
  what: string,
  options: WebhookOptions,
): void {
  const turn = new Promise<void>((resolve) => setImmediate(resolve));
  detach(() => turn.then(work), logger, what, options);
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * Slack's expected acknowledgement: 200 with no body. Slack reads only the status, and a body of
 * any length costs a web stream per answer (about 30 µs in Node 20, ADR 0028).
 */
export function ack(): Response {
  return new Response(null, { status: 200 });
}

/** A refusal in Baton's error shape (core's `webhookProblem`). */
export { webhookProblem as problem } from "@baton/core";
