import type { ServerResponse } from "node:http";

/** One Graph call the bot made to the fake. */
export interface FakeGraphCall {
  readonly path: string;
  /** The scope of the token the call carried (the fake records what it minted each token for). */
  readonly scope: string | undefined;
}

/** A failure the fake Graph answers the next call with. */
export interface FakeGraphFailure {
  readonly status: number;
  readonly code?: string;
  readonly message?: string;
  readonly retryAfterSeconds?: number;
}

type Json = Record<string, unknown>;

function send(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/**
 * The Microsoft Graph endpoints the Teams adapter reads, served from data a test puts in:
 * users, chat messages, channels, channel messages and replies. Listings are paged
 * (`pageSize`, with `@odata.nextLink`); only tokens minted for the cloud's Graph scope pass.
 */
export class FakeGraph {
  /** Every Graph call, in order. */
  readonly calls: FakeGraphCall[] = [];
  /** Items per listing page. Default 20. */
  pageSize = 20;
  private readonly objects = new Map<string, Json>();
  private readonly lists = new Map<string, Json[]>();
  private readonly failures: FakeGraphFailure[] = [];

  constructor(
    /** The fake's base URL (Graph's origin in its cloud). */
    private readonly url: string,
    /** The Graph scope tokens must be minted for. */
    readonly scope: string,
  ) {}

  /** A directory user, by Entra object id (`id`). */
  addUser(user: Json & { id: string }): void {
    this.objects.set(`/v1.0/users/${user.id}`, user);
  }

  /** Messages of a chat, in the order Graph would list them. */
  addChatMessages(chatId: string, messages: readonly Json[]): void {
    this.append(`/v1.0/chats/${chatId}/messages`, messages);
  }

  /** What `GET /teams/{teamId}/channels/{channelId}` answers (Graph may omit any field). */
  addChannel(teamId: string, channelId: string, channel: Json): void {
    this.objects.set(`/v1.0/teams/${teamId}/channels/${channelId}`, channel);
  }

  /** Top-level channel messages; each is also served by id. */
  addChannelMessages(teamId: string, channelId: string, messages: readonly Json[]): void {
    const root = `/v1.0/teams/${teamId}/channels/${channelId}/messages`;
    this.append(root, messages);
    for (const message of messages) this.objects.set(`${root}/${String(message.id)}`, message);
  }

  /** Replies in one channel reply chain. */
  addReplies(teamId: string, channelId: string, messageId: string, replies: readonly Json[]) {
    this.append(
      `/v1.0/teams/${teamId}/channels/${channelId}/messages/${messageId}/replies`,
      replies,
    );
  }

  /** Makes the next Graph call fail (repeat to fail several). */
  failNext(failure: FakeGraphFailure): void {
    this.failures.push(failure);
  }

  /** @internal Answers one Graph request; `scope` is what the bearer token was minted for. */
  serve(
    response: ServerResponse,
    rawPath: string,
    query: URLSearchParams,
    scope: string | undefined,
  ) {
    const path = decodeURIComponent(rawPath);
    this.calls.push({ path, scope });
    if (scope !== this.scope) {
      return send(
        response,
        401,
        graphError("InvalidAuthenticationToken", "Access token is invalid."),
      );
    }
    const failure = this.failures.shift();
    if (failure !== undefined) {
      const headers =
        failure.retryAfterSeconds === undefined
          ? {}
          : { "retry-after": String(failure.retryAfterSeconds) };
      return send(
        response,
        failure.status,
        graphError(failure.code ?? "Forbidden", failure.message ?? "Graph refused the request."),
        headers,
      );
    }
    const object = this.objects.get(path);
    if (object !== undefined) return send(response, 200, object);
    const list = this.lists.get(path);
    if (list === undefined) {
      return send(response, 404, graphError("NotFound", `no resource at ${path}`));
    }
    const skip = Number(query.get("$skiptoken") ?? "0");
    const page = list.slice(skip, skip + this.pageSize);
    const next = skip + this.pageSize;
    return send(response, 200, {
      value: page,
      ...(next < list.length ? { "@odata.nextLink": `${this.url}${path}?$skiptoken=${next}` } : {}),
    });
  }

  private append(path: string, items: readonly Json[]): void {
    this.lists.set(path, [...(this.lists.get(path) ?? []), ...items]);
  }
}

function graphError(code: string, message: string): Json {
  return { error: { code, message } };
}
