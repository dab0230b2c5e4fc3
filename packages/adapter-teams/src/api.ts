import { type Clock, type Logger, sleep } from "@baton/core";
import { type ActivityParams, Client, type ConversationResource } from "@microsoft/teams.api";
import { teamsApiError, teamsFailureOf } from "./errors.js";

/** What the API client needs. */
export interface TeamsApiOptions {
  /** The bot's outbound access token (from the Teams SDK's token manager). */
  readonly token: () => Promise<string>;
  /** Replaces every service URL (GCC-High, a proxy, the offline fake). */
  readonly apiUrl: string | undefined;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
  readonly clock: Clock;
  readonly logger: () => Logger;
}

/** An activity as the connector takes it (the SDK's `ActivityParams`). */
export type TeamsOutboundActivity = ActivityParams;

const MAX_RETRY_DELAY_MS = 30_000;

function isRetryable(status: number | undefined): boolean {
  return status === 429 || (status !== undefined && status >= 500);
}

/**
 * The Bot Connector through the Teams SDK's API client (`@microsoft/teams.api` `Client`), one
 * per service URL. A call refused with 429 waits the `Retry-After` Teams sent (else an
 * exponential backoff) on the injected clock, as do 5xx answers; other failures become a
 * `TeamsApiError` (a final 429 a `RateLimitError`).
 */
export class TeamsApi {
  private readonly clients = new Map<string, Client>();

  constructor(private readonly options: TeamsApiOptions) {}

  /** The SDK client for a conversation's service URL. */
  client(serviceUrl: string): Client {
    const base = (this.options.apiUrl ?? serviceUrl).replace(/\/+$/, "");
    let client = this.clients.get(base);
    if (client === undefined) {
      client = new Client(base, { token: () => this.options.token() });
      this.clients.set(base, client);
    }
    return client;
  }

  /** Posts an activity into a conversation (a reply when `activity.replyToId` is set). */
  async send(serviceUrl: string, conversationId: string, activity: TeamsOutboundActivity) {
    const client = this.client(serviceUrl);
    return this.withRetry("send an activity", () =>
      client.conversations.activities(conversationId).create(activity),
    );
  }

  /**
   * Posts an activity only `recipient` sees (Teams' targeted messages,
   * `isTargetedActivity=true`): the SDK's `createTargeted`.
   */
  async sendTargeted(serviceUrl: string, conversationId: string, activity: TeamsOutboundActivity) {
    const client = this.client(serviceUrl);
    return this.withRetry("send a targeted activity", () =>
      client.conversations.activities(conversationId).createTargeted(activity),
    );
  }

  /** Replaces a posted activity (`updateActivity`). */
  async update(
    serviceUrl: string,
    conversationId: string,
    id: string,
    activity: TeamsOutboundActivity,
  ) {
    const client = this.client(serviceUrl);
    return this.withRetry("update an activity", () =>
      client.conversations.activities(conversationId).update(id, activity),
    );
  }

  /** Deletes a posted activity (`deleteActivity`). */
  async delete(serviceUrl: string, conversationId: string, id: string): Promise<void> {
    const client = this.client(serviceUrl);
    await this.withRetry("delete an activity", () =>
      client.conversations.activities(conversationId).delete(id),
    );
  }

  /** Adds the bot's reaction to a message. */
  async addReaction(serviceUrl: string, conversationId: string, id: string, reaction: string) {
    const client = this.client(serviceUrl);
    await this.withRetry("add a reaction", () =>
      client.conversations.addReaction(conversationId, id, reaction as never),
    );
  }

  /** Removes the bot's reaction from a message. */
  async removeReaction(serviceUrl: string, conversationId: string, id: string, reaction: string) {
    const client = this.client(serviceUrl);
    await this.withRetry("remove a reaction", () =>
      client.conversations.deleteReaction(conversationId, id, reaction as never),
    );
  }

  /** Creates a personal conversation with a user (proactive `openDM`). */
  async createConversation(
    serviceUrl: string,
    params: { botId: string; userId: string; tenantId: string | undefined },
  ): Promise<ConversationResource> {
    const client = this.client(serviceUrl);
    return this.withRetry("create a conversation", () =>
      client.conversations.create({
        bot: { id: params.botId },
        members: [{ id: params.userId }] as never,
        ...(params.tenantId === undefined ? {} : { tenantId: params.tenantId }),
        channelData: params.tenantId === undefined ? {} : { tenant: { id: params.tenantId } },
      }),
    );
  }

  private async withRetry<T>(step: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        const failure = teamsFailureOf(error, this.options.clock.now());
        if (!isRetryable(failure.status) || attempt >= this.options.maxRetries) {
          throw teamsApiError(step, error, this.options.clock.now());
        }
        const backoffMs = Math.min(
          this.options.retryBaseDelayMs * 2 ** attempt,
          MAX_RETRY_DELAY_MS,
        );
        const delayMs = Math.min(failure.retryAfterMs ?? backoffMs, MAX_RETRY_DELAY_MS);
        this.options.logger().warn(`teams: ${step} was refused; retrying`, {
          status: failure.status,
          attempt: attempt + 1,
          delayMs,
        });
        await sleep(this.options.clock, delayMs);
      }
    }
  }
}
