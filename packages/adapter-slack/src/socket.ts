import type { Logger } from "@baton/core";
import { SocketModeClient } from "@slack/socket-mode";
import { slackApiUrlOf } from "./api.js";
import {
  parseSlackWebhookBody,
  SlackWebhookParseError,
  type SlackWebhookPayload,
} from "./parse.js";
import { routeSlackPayload } from "./webhook.js";
import type { SlackWebhookTarget } from "./webhook-target.js";

/** One Socket Mode delivery, as `@slack/socket-mode` hands it over. */
interface SocketEvent {
  readonly ack: (payload?: Record<string, unknown>) => Promise<void>;
  readonly type: string;
  readonly body: unknown;
  readonly retry_num?: number;
}

function payloadOf(event: SocketEvent): SlackWebhookPayload | undefined {
  const body = event.body as Record<string, unknown> | undefined;
  if (typeof body !== "object" || body === null) return undefined;
  switch (event.type) {
    case "events_api":
      return parseSlackWebhookBody(JSON.stringify(body), "application/json");
    case "interactive":
      if (typeof body.type !== "string") throw new SlackWebhookParseError("no interaction type");
      return { kind: "interaction", type: body.type, payload: body };
    case "slash_commands": {
      const params: Record<string, string> = {};
      for (const [key, value] of Object.entries(body)) {
        if (typeof value === "string") params[key] = value;
      }
      return { kind: "command", params };
    }
    default:
      return undefined;
  }
}

/**
 * Handles one envelope: routes it exactly as the webhook routes a verified request (the
 * connection is authenticated with the app token, so there is no signature), then acknowledges it
 * with the answer's JSON body (modal `response_action`s, select options) or a bare ack. An
 * envelope the Chat refused (admission, State down) is left unacknowledged, so Slack delivers it
 * again, as it retries a webhook answered 503.
 */
export async function onSocketEvent(
  target: SlackWebhookTarget,
  event: SocketEvent,
  waitUntil: (task: Promise<unknown>) => void,
): Promise<void> {
  let payload: SlackWebhookPayload | undefined;
  try {
    payload = payloadOf(event);
  } catch (error) {
    target.logger().warn("slack: unreadable socket mode envelope acknowledged", { error });
    await event.ack();
    return;
  }
  if (payload === undefined) {
    await event.ack();
    return;
  }
  const retry = event.retry_num ? String(event.retry_num) : null;
  const response = await routeSlackPayload(target, payload, retry, { waitUntil });
  if (response.status >= 500) {
    target.logger().warn("slack: socket mode envelope not acknowledged, Slack will retry", {
      status: response.status,
    });
    return;
  }
  const text = await response.text();
  const isJson = response.headers.get("content-type")?.includes("application/json") === true;
  await event.ack(
    isJson && text !== "" ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  );
}

/** What a Socket Mode connection needs. */
export interface SlackSocketOptions {
  readonly appToken: string;
  readonly apiUrl: string | undefined;
  readonly logger: () => Logger;
}

function quietLogger(logger: () => Logger) {
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...args: unknown[]) => logger().warn(`slack socket mode: ${args.join(" ")}`),
    error: (...args: unknown[]) => logger().error(`slack socket mode: ${args.join(" ")}`),
    setLevel: () => undefined,
    getLevel: () => "info",
    setName: () => undefined,
  } as unknown as NonNullable<ConstructorParameters<typeof SocketModeClient>[0]>["logger"];
}

/**
 * Socket Mode through `@slack/socket-mode`'s `SocketModeClient`: it opens the connection with the
 * app token (`apps.connections.open` at `apiUrl`), keeps it alive and reconnects; every envelope
 * goes through {@link onSocketEvent}.
 */
export class SlackSocketConnection {
  private client: SocketModeClient | undefined;
  private readonly tasks = new Set<Promise<unknown>>();

  constructor(
    private readonly options: SlackSocketOptions,
    private readonly target: () => SlackWebhookTarget,
  ) {}

  /** Connects; resolves once Slack said hello. Calling it again while connected does nothing. */
  async start(): Promise<void> {
    if (this.client !== undefined) return;
    const client = new SocketModeClient({
      appToken: this.options.appToken,
      logger: quietLogger(this.options.logger),
      ...(this.options.apiUrl === undefined
        ? {}
        : { clientOptions: { slackApiUrl: slackApiUrlOf(this.options.apiUrl) } }),
    });
    client.on("slack_event", (event: SocketEvent) => {
      const task = onSocketEvent(this.target(), event, (detached) => this.track(detached)).catch(
        (error: unknown) =>
          this.options.logger().error("slack: socket mode event failed", { error }),
      );
      this.track(task);
    });
    this.client = client;
    await client.start();
  }

  /** Disconnects after the envelopes in flight were handled. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
    await client?.disconnect();
  }

  private track(task: Promise<unknown>): void {
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }
}
