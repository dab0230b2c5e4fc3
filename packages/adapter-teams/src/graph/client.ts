import { RateLimitError } from "@baton/core";
import { retryAfterMsOf, TeamsApiError } from "../errors.js";
import { extractTextFromGraphMessage, type GraphChatMessage } from "./text.js";

/** Microsoft Graph's public endpoint (sovereign clouds pass their own `baseUrl`). */
export const DEFAULT_GRAPH_URL = "https://graph.microsoft.com";

/** Options of {@link TeamsGraph}. */
export interface TeamsGraphOptions {
  /** Graph's origin, without `/v1.0` (the Teams SDK derives it from the cloud's `graphScope`). */
  readonly baseUrl?: string;
  /** An app-only Graph access token (client credentials for the Graph scope). */
  readonly token: () => Promise<string>;
  /** The fetch to call Graph with. Default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Pages followed at most per listing, so a runaway `@odata.nextLink` chain ends. Default 50. */
  readonly maxPages?: number;
}

/** A Graph message with its text already extracted. */
export interface TeamsGraphMessage {
  readonly id: string;
  /** The message it answers, in a channel reply chain. */
  readonly replyToId: string | undefined;
  readonly text: string;
  readonly authorId: string | undefined;
  readonly authorName: string | undefined;
  /** True when an application (a bot), not a user, sent it. */
  readonly isBot: boolean;
  readonly createdAt: Date | undefined;
  readonly editedAt: Date | undefined;
  readonly raw: GraphChatMessage;
}

/** A channel as Graph describes it; `displayName` only when Graph returned one. */
export interface TeamsGraphChannel {
  readonly id: string;
  readonly displayName?: string;
}

/** A directory user as Graph returns it (the fields Baton reads). */
export interface TeamsGraphUser {
  readonly id: string;
  readonly displayName?: string | null;
  readonly mail?: string | null;
  readonly userPrincipalName?: string | null;
}

function dateOf(value: string | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A Graph message reduced to what Baton's history needs; absent fields stay undefined. */
export function toTeamsGraphMessage(raw: GraphChatMessage): TeamsGraphMessage {
  const author = raw.from?.user ?? raw.from?.application ?? undefined;
  return {
    id: raw.id,
    replyToId: raw.replyToId ?? undefined,
    text: extractTextFromGraphMessage(raw),
    authorId: author?.id ?? undefined,
    authorName: author?.displayName ?? undefined,
    isBot: raw.from?.application != null && raw.from?.user == null,
    createdAt: dateOf(raw.createdDateTime),
    editedAt: dateOf(raw.lastModifiedDateTime),
    raw,
  };
}

/**
 * Read-only Microsoft Graph calls the Teams adapter makes with the app's own credentials: chat
 * and channel history, one channel message, channel info and directory users. Listings follow
 * `@odata.nextLink`; a refusal is a `TeamsApiError` (Graph's `error.code` as `connectorCode`),
 * a 429 core's `RateLimitError` with Graph's `Retry-After`.
 */
export class TeamsGraph {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxPages: number;

  constructor(private readonly options: TeamsGraphOptions) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_GRAPH_URL).replace(/\/+$/, "");
    this.fetchImpl = options.fetch ?? fetch;
    this.maxPages = options.maxPages ?? 50;
  }

  /** Every message of a chat (group or personal), Graph's order (newest first). */
  async listChatMessages(chatId: string): Promise<TeamsGraphMessage[]> {
    return this.messages(`/chats/${encodeURIComponent(chatId)}/messages`);
  }

  /** The top-level messages of a channel. */
  async listChannelMessages(teamId: string, channelId: string): Promise<TeamsGraphMessage[]> {
    return this.messages(`${this.channelPath(teamId, channelId)}/messages`);
  }

  /** The replies in one channel reply chain. */
  async listChannelReplies(
    teamId: string,
    channelId: string,
    messageId: string,
  ): Promise<TeamsGraphMessage[]> {
    const root = `${this.channelPath(teamId, channelId)}/messages/${encodeURIComponent(messageId)}`;
    return this.messages(`${root}/replies`);
  }

  /** One channel message. */
  async getChannelMessage(
    teamId: string,
    channelId: string,
    messageId: string,
  ): Promise<TeamsGraphMessage> {
    const path = `${this.channelPath(teamId, channelId)}/messages/${encodeURIComponent(messageId)}`;
    return toTeamsGraphMessage((await this.get(`${this.baseUrl}/v1.0${path}`)) as GraphChatMessage);
  }

  /** A channel's id and name; the id asked for when Graph answers without one. */
  async getChannel(teamId: string, channelId: string): Promise<TeamsGraphChannel> {
    const body = (await this.get(`${this.baseUrl}/v1.0${this.channelPath(teamId, channelId)}`)) as {
      id?: string;
      displayName?: string | null;
    };
    return {
      id: body.id ?? channelId,
      ...(typeof body.displayName === "string" ? { displayName: body.displayName } : {}),
    };
  }

  /** A directory user by Entra object id (`aadObjectId`). */
  async getUser(aadObjectId: string): Promise<TeamsGraphUser> {
    return (await this.get(
      `${this.baseUrl}/v1.0/users/${encodeURIComponent(aadObjectId)}`,
    )) as TeamsGraphUser;
  }

  private channelPath(teamId: string, channelId: string): string {
    return `/teams/${encodeURIComponent(teamId)}/channels/${encodeURIComponent(channelId)}`;
  }

  private async messages(path: string): Promise<TeamsGraphMessage[]> {
    const out: TeamsGraphMessage[] = [];
    let next: string | undefined = `${this.baseUrl}/v1.0${path}`;
    for (let page = 0; next !== undefined && page < this.maxPages; page += 1) {
      const body = (await this.get(next)) as {
        value?: GraphChatMessage[];
        "@odata.nextLink"?: string;
      };
      for (const raw of body.value ?? []) out.push(toTeamsGraphMessage(raw));
      next = body["@odata.nextLink"];
    }
    return out;
  }

  private async get(url: string): Promise<unknown> {
    const token = await this.options.token();
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      });
    } catch (error) {
      throw new TeamsApiError(
        `teams: graph request failed: ${String(error)}`,
        {},
        { cause: error },
      );
    }
    const text = await response.text();
    const body = text === "" ? undefined : (JSON.parse(text) as unknown);
    if (response.ok) return body ?? {};
    const failure = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    const message = `teams: graph ${new URL(url).pathname} failed (${response.status}): ${failure?.message ?? response.statusText}`;
    if (response.status === 429) {
      throw new RateLimitError(
        message,
        retryAfterMsOf(response.headers.get("retry-after"), Date.now()),
      );
    }
    throw new TeamsApiError(message, {
      status: response.status,
      ...(failure?.code !== undefined ? { code: failure.code } : {}),
    });
  }
}
