import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeCallStore, type FakeTwilioCall } from "./fake-calls.js";
import { type FakeAnswer, FakeContentStore, type FakeTwilioContent } from "./fake-content.js";
import { empty, formOf, many, one, readBody, reply, send } from "./fake-http.js";
import { twilioErrorBody } from "./fake-twilio-errors.js";
import { statusCallbackRequest } from "./status-callback.js";

/** One request the fake received, as the test sees it. */
export interface FakeTwilioRequest {
  readonly method: string;
  readonly path: string;
  /** Form parameters, repeated names as arrays. */
  readonly params: Readonly<Record<string, string | string[]>>;
  /** The Basic-auth user name, or undefined when none was sent. */
  readonly username: string | undefined;
  /** The parsed body of a JSON request (the Content API's), else undefined. */
  readonly json?: unknown;
}

/** A message the bot sent through the fake. */
export interface FakeTwilioMessage {
  readonly sid: string;
  readonly to: string;
  readonly from: string | undefined;
  readonly messagingServiceSid: string | undefined;
  readonly body: string | undefined;
  readonly mediaUrls: readonly string[];
  readonly statusCallback: string | undefined;
  /** The Content template (`HX…`) the message was sent with; `body` is then its rendered text. */
  readonly contentSid: string | undefined;
  /** The `ContentVariables` it was sent with, parsed. */
  readonly contentVariables: Readonly<Record<string, string>> | undefined;
  status: string;
  deleted: boolean;
}

/** The routes a failure can be injected into. */
export type FakeTwilioRoute =
  | "messages.create"
  | "messages.delete"
  | "media"
  | "typing"
  | "content.create"
  | "calls.update";

/** An error answer in Twilio's shape. */
export interface FakeTwilioFailure {
  readonly status: number;
  /** Twilio's error code; default by status (20429 for 429, 20500 for 5xx, 21211 otherwise). */
  readonly code?: number;
  readonly message?: string;
}

/** Options of {@link startFakeTwilio}. */
export interface FakeTwilioOptions {
  /** The account the fake serves. Default `AC` + 32 zeros. */
  readonly accountSid?: string;
  /** The token REST calls must authenticate with. Default `fake-auth-token`. */
  readonly authToken?: string;
}

/** Twilio's limit on one message body. */
export const TWILIO_BODY_LIMIT = 1_600;

interface MediaItem {
  readonly content: Uint8Array;
  readonly contentType: string;
}

/**
 * A local stand-in for Twilio's REST API: the Messages API (create, delete), media downloads,
 * the WhatsApp typing indicator, the Content API (templates such as `twilio/quick-reply`, sent
 * with `ContentSid`) and live-call updates, with Twilio's JSON shapes, its Basic-auth check, its
 * validation errors (21604 no To, 21603 no From, 21602 no Body, 21617 body over 1 600
 * characters, 21655 unknown ContentSid, 21654 ContentVariables without ContentSid) and injectable
 * failures (429, 5xx, any Twilio code). Give its `url` to the adapter as `apiUrl`.
 */
export class FakeTwilio {
  readonly accountSid: string;
  readonly authToken: string;
  /** Every request received, oldest first. */
  readonly requests: FakeTwilioRequest[] = [];
  /** Every message created, oldest first. */
  readonly messages: FakeTwilioMessage[] = [];
  /** Inbound message sids the typing indicator was shown for. */
  readonly typingIndicators: string[] = [];
  private readonly content: FakeContentStore;
  private readonly voice: FakeCallStore;
  private readonly media = new Map<string, MediaItem>();
  private readonly failures = new Map<FakeTwilioRoute, FakeTwilioFailure[]>();
  private server: Server | undefined;
  private base = "";

  constructor(options: FakeTwilioOptions = {}) {
    this.accountSid = options.accountSid ?? `AC${"0".repeat(32)}`;
    this.authToken = options.authToken ?? "fake-auth-token";
    this.content = new FakeContentStore(this.accountSid);
    this.voice = new FakeCallStore(this.accountSid);
  }

  /** Every Content template created and not deleted, oldest first. */
  get contents(): readonly FakeTwilioContent[] {
    return this.content.contents;
  }

  /** Every call started with {@link startCall}, with the updates the bot made to it. */
  get calls(): readonly FakeTwilioCall[] {
    return this.voice.calls;
  }

  /** Plays a live call between `from` and `to`; returns its `CA…` sid for the bot to update. */
  startCall(from: string, to: string): string {
    return this.voice.startCall(from, to);
  }

  /** Deletes a Content template, as someone might in Twilio's console. */
  deleteContent(sid: string): void {
    this.content.handle("DELETE", `/v1/Content/${sid}`, undefined, new URLSearchParams());
  }

  /** The base URL to pass as `apiUrl`. */
  get url(): string {
    if (this.base === "") throw new Error("the fake Twilio is not listening; call start()");
    return this.base;
  }

  /** Listens on 127.0.0.1 on a free port. */
  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        send(response, 500, twilioErrorBody(500, 20500, String(error)));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${port}`;
    return this;
  }

  /** Stops listening. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Makes the next `times` calls of `route` fail with `failure`. */
  failNext(route: FakeTwilioRoute, failure: FakeTwilioFailure, times = 1): void {
    const queue = this.failures.get(route) ?? [];
    for (let i = 0; i < times; i += 1) queue.push(failure);
    this.failures.set(route, queue);
  }

  /**
   * Stores a media item and returns its URL the way an inbound webhook names it
   * (`https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages/{MM}/Media/{ME}`); the adapter
   * fetches it through `apiUrl`.
   */
  addMedia(content: string | Uint8Array, contentType = "image/jpeg"): string {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const path = `/2010-04-01/Accounts/${this.accountSid}/Messages/${sidOf("MM")}/Media/${sidOf("ME")}`;
    this.media.set(path, { content: bytes, contentType });
    return `https://api.twilio.com${path}`;
  }

  /**
   * Plays Twilio reporting a delivery status: marks the message `status` and calls `deliver`
   * (the bot's webhook) with the signed status callback Twilio would POST to the message's
   * `StatusCallback` URL — `ErrorCode` added for failures. Resolves with the webhook's answer.
   */
  async fireStatusCallback(
    sid: string,
    status: string,
    deliver: (request: Request) => Promise<Response>,
    extra: Readonly<Record<string, string>> = {},
  ): Promise<Response> {
    const message = this.messages.find((m) => m.sid === sid);
    if (message === undefined) throw new Error(`the fake Twilio sent no message ${sid}`);
    if (message.statusCallback === undefined) {
      throw new Error(`message ${sid} was sent without a StatusCallback URL`);
    }
    message.status = status;
    return deliver(statusCallbackRequest(this, message, status, extra));
  }

  /** The bodies sent to `to`, oldest first. */
  bodiesTo(to: string): (string | undefined)[] {
    return this.messages.filter((m) => m.to === to && !m.deleted).map((m) => m.body);
  }

  private authorized(request: IncomingMessage): string | undefined | false {
    const header = request.headers.authorization;
    if (!header?.startsWith("Basic ")) return false;
    const [user, password] = Buffer.from(header.slice(6), "base64").toString("utf8").split(":");
    return user === this.accountSid && password === this.authToken ? user : false;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://fake");
    const path = url.pathname;
    const method = request.method ?? "GET";
    const text = await readBody(request);
    const isJson = request.headers["content-type"]?.startsWith("application/json") === true;
    const json = isJson && text !== "" ? (JSON.parse(text) as unknown) : undefined;
    const params = isJson ? {} : formOf(text);
    const user = this.authorized(request);
    this.requests.push({
      method,
      path,
      params,
      username: user === false ? undefined : user,
      ...(json === undefined ? {} : { json }),
    });
    if (user === false) {
      return send(response, 401, twilioErrorBody(401, 20003, "Authenticate"));
    }
    if (path.startsWith("/v1/Content")) {
      if (method === "POST" && this.failed("content.create", response)) return;
      const answer = this.content.handle(method, path, json, url.searchParams);
      if (answer !== undefined)
        return answer.status === 204 ? empty(response) : reply(response, answer);
    }
    if (path.includes("/Calls/")) {
      if (method === "POST" && this.failed("calls.update", response)) return;
      const single: Record<string, string> = {};
      for (const [name, value] of Object.entries(params)) single[name] = one(value) ?? "";
      const answer = this.voice.handle(method, path, single);
      if (answer !== undefined) return reply(response, answer);
    }
    const account = `/2010-04-01/Accounts/${this.accountSid}`;
    if (method === "POST" && path === `${account}/Messages.json`) {
      return this.createMessage(params, response);
    }
    if (method === "GET" && path === `${account}/Messages.json`) {
      return this.listMessages(new URL(request.url ?? "/", "http://fake").searchParams, response);
    }
    const bySid = new RegExp(`^${account}/Messages/(SM\\w+)\\.json$`).exec(path);
    if (method === "DELETE" && bySid) return this.deleteMessage(bySid[1] as string, response);
    if (method === "GET" && bySid) {
      const found = this.messages.find((m) => m.sid === bySid[1] && !m.deleted);
      return found
        ? send(response, 200, this.resource(found))
        : send(response, 404, twilioErrorBody(404, 20404));
    }
    if (method === "GET" && this.media.has(path)) {
      if (this.failed("media", response)) return;
      const item = this.media.get(path) as MediaItem;
      response.writeHead(200, { "content-type": item.contentType });
      response.end(Buffer.from(item.content));
      return;
    }
    if (method === "POST" && path === "/v2/Indicators/Typing.json") {
      if (this.failed("typing", response)) return;
      this.typingIndicators.push(one(params.messageId) ?? "");
      return send(response, 200, { success: true });
    }
    send(
      response,
      404,
      twilioErrorBody(404, 20404, `The requested resource ${path} was not found`),
    );
  }

  private failed(route: FakeTwilioRoute, response: ServerResponse): boolean {
    const failure = this.failures.get(route)?.shift();
    if (failure === undefined) return false;
    const code =
      failure.code ?? (failure.status === 429 ? 20429 : failure.status >= 500 ? 20500 : 21211);
    send(response, failure.status, twilioErrorBody(failure.status, code, failure.message));
    return true;
  }

  private createMessage(params: Record<string, string | string[]>, response: ServerResponse): void {
    if (this.failed("messages.create", response)) return;
    const to = one(params.To);
    const from = one(params.From);
    const service = one(params.MessagingServiceSid);
    const contentSid = one(params.ContentSid);
    const variablesText = one(params.ContentVariables);
    const mediaUrls = many(params.MediaUrl);
    if (!to) return send(response, 400, twilioErrorBody(400, 21604));
    if (!from && !service) return send(response, 400, twilioErrorBody(400, 21603));
    if (variablesText !== undefined && contentSid === undefined) {
      return send(response, 400, twilioErrorBody(400, 21654));
    }
    let contentVariables: Record<string, string> | undefined;
    try {
      contentVariables = variablesText === undefined ? undefined : JSON.parse(variablesText);
    } catch {
      return send(response, 400, twilioErrorBody(400, 21656));
    }
    // Twilio refuses a variable that is null or empty, or that holds a newline, a tab or more
    // than four consecutive spaces (21656).
    for (const value of Object.values(contentVariables ?? {}) as unknown[]) {
      if (typeof value !== "string" || value === "" || /[\n\t]| {5,}/.test(value)) {
        return send(response, 400, twilioErrorBody(400, 21656));
      }
    }
    const rendered =
      contentSid === undefined
        ? undefined
        : this.content.render(contentSid, contentVariables ?? {});
    if (contentSid !== undefined && rendered === undefined) {
      return send(response, 400, twilioErrorBody(400, 21655));
    }
    const body = rendered ?? one(params.Body);
    if (!body && mediaUrls.length === 0) return send(response, 400, twilioErrorBody(400, 21602));
    if (body !== undefined && [...body].length > TWILIO_BODY_LIMIT) {
      return send(response, 400, twilioErrorBody(400, 21617));
    }
    const message: FakeTwilioMessage = {
      sid: sidOf("SM"),
      to,
      from,
      messagingServiceSid: service,
      body,
      mediaUrls,
      statusCallback: one(params.StatusCallback),
      contentSid,
      contentVariables,
      status: service ? "accepted" : "queued",
      deleted: false,
    };
    this.messages.push(message);
    send(response, 201, this.resource(message));
  }

  private listMessages(query: URLSearchParams, response: ServerResponse): void {
    const from = query.get("From");
    const to = query.get("To");
    const limit = Number(query.get("PageSize") ?? "50");
    const found = this.messages
      .filter(
        (m) => !m.deleted && (from === null || m.from === from) && (to === null || m.to === to),
      )
      .reverse()
      .slice(0, limit);
    send(response, 200, {
      messages: found.map((message) => this.resource(message)),
      page: 0,
      page_size: limit,
      next_page_uri: null,
      uri: `/2010-04-01/Accounts/${this.accountSid}/Messages.json`,
    });
  }

  private deleteMessage(sid: string, response: ServerResponse): void {
    if (this.failed("messages.delete", response)) return;
    const message = this.messages.find((m) => m.sid === sid && !m.deleted);
    if (!message) return send(response, 404, twilioErrorBody(404, 20404));
    message.deleted = true;
    response.writeHead(204);
    response.end();
  }

  private resource(message: FakeTwilioMessage): Record<string, unknown> {
    return {
      sid: message.sid,
      account_sid: this.accountSid,
      to: message.to,
      from: message.from ?? null,
      messaging_service_sid: message.messagingServiceSid ?? null,
      body: message.body ?? "",
      status: message.status,
      num_media: String(message.mediaUrls.length),
      direction: "outbound-api",
      date_created: new Date().toUTCString(),
      uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${message.sid}.json`,
    };
  }
}

function sidOf(prefix: string): string {
  return `${prefix}${randomBytes(16).toString("hex")}`;
}

/** Starts a {@link FakeTwilio} on a free local port. */
export function startFakeTwilio(options: FakeTwilioOptions = {}): Promise<FakeTwilio> {
  return new FakeTwilio(options).start();
}
