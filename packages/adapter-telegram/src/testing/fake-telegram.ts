import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CAPTION_LIMIT, checkMarkup, checkText, MESSAGE_LIMIT } from "./fake-telegram-checks.js";
import { type Answer, fail, ok, readParams, send } from "./fake-telegram-http.js";

/** One Bot API call the fake received. */
export interface FakeTelegramRequest {
  readonly method: string;
  /** The call's parameters (JSON body, or multipart fields with files as `{ filename, size }`). */
  readonly params: Record<string, unknown>;
}

/** A message the fake holds (sent by the bot through it). */
export interface FakeTelegramMessage {
  message_id: number;
  chat_id: string;
  message_thread_id?: number;
  text?: string;
  caption?: string;
  parse_mode?: string;
  reply_markup?: unknown;
  reactions: unknown[];
  deleted: boolean;
}

/** An error the next call of a method answers with, in Telegram's shape. */
export interface FakeTelegramFailure {
  readonly error_code: number;
  readonly description: string;
  /** For 429: seconds to wait, sent as `parameters.retry_after`. */
  readonly retry_after?: number;
}

/** Options of {@link startFakeTelegram}. */
export interface FakeTelegramOptions {
  /** The bot's token; calls with another one get 401. Default a fresh `{id}:{secret}`. */
  readonly token?: string;
  /** The bot's username (`getMe`). Default `baton_test_bot`. */
  readonly botUserName?: string;
}

/**
 * An offline Bot API on a local HTTP server: the methods the adapter calls, with Telegram's
 * `{ ok, result }` / `{ ok: false, error_code, description, parameters }` shapes, 401 for a wrong
 * token, MarkdownV2/HTML checked as Telegram parses them (400 "can't parse entities"), its
 * length and `callback_data` limits, a `getUpdates` queue with offsets (and 409 while a webhook
 * is set or a second poller calls), file downloads, and scripted failures (429 with
 * `retry_after` included). Point the adapter's `apiUrl` at {@link url}.
 */
export class FakeTelegram {
  /** Every call received, in order. */
  readonly requests: FakeTelegramRequest[] = [];
  /** Messages sent through the fake, by chat id. */
  readonly messages = new Map<string, FakeTelegramMessage[]>();
  /** The webhook URL set with `setWebhook` (empty when none). */
  webhookUrl = "";
  /** How many `getUpdates` calls were answered 409 because another poller was active. */
  pollConflicts = 0;
  private readonly failures = new Map<string, FakeTelegramFailure[]>();
  private readonly rawAnswers = new Map<string, { status: number; body: string }>();
  private readonly updates: { update_id: number }[] = [];
  private readonly files = new Map<string, { path: string; data: Buffer }>();
  private readonly chats = new Map<string, Record<string, unknown>>();
  private nextMessageId = 1;
  private activePoll: { done: (answer: Answer) => void } | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly server: Server,
    readonly url: string,
    readonly token: string,
    readonly botUserName: string,
  ) {}

  /** The bot's numeric id (the token's prefix). */
  get botId(): number {
    return Number(this.token.split(":")[0]);
  }

  /** The calls of one method. */
  calls(method: string): FakeTelegramRequest[] {
    return this.requests.filter((request) => request.method === method);
  }

  /** The messages of a chat the bot sent, in order (deleted ones included, marked). */
  sentTo(chatId: string | number): FakeTelegramMessage[] {
    return this.messages.get(String(chatId)) ?? [];
  }

  /** Makes the next `count` calls of `method` fail with `failure`. */
  failNext(method: string, failure: FakeTelegramFailure, count = 1): void {
    const queue = this.failures.get(method) ?? [];
    for (let index = 0; index < count; index += 1) queue.push(failure);
    this.failures.set(method, queue);
  }

  /** Makes the next call of `method` answer `status` with `body` as is (not the Bot API's JSON). */
  answerNextRaw(method: string, status: number, body: string): void {
    this.rawAnswers.set(method, { status, body });
  }

  /** Queues an update for `getUpdates`. */
  enqueueUpdate(update: { update_id: number }): void {
    this.updates.push(update);
    for (const wake of this.waiters) wake();
  }

  /** Updates still queued (not confirmed by an offset). */
  get pendingUpdates(): number {
    return this.updates.length;
  }

  /** Stores a file for `getFile` and download; returns its `file_id`. */
  addFile(data: Uint8Array | string, path = `documents/file_${this.files.size}.bin`): string {
    const id = `file-${randomBytes(6).toString("hex")}`;
    this.files.set(id, { path, data: Buffer.from(data) });
    return id;
  }

  /** Makes `getChat` know a chat. */
  addChat(chat: { id: number; type: string } & Record<string, unknown>): void {
    this.chats.set(String(chat.id), chat);
  }

  /** Stops the server. */
  close(): Promise<void> {
    this.activePoll?.done(ok([]));
    for (const wake of this.waiters) wake();
    return new Promise((resolve) => {
      this.server.closeAllConnections?.();
      this.server.close(() => resolve());
    });
  }

  /** @internal Serves one HTTP request. */
  async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", this.url).pathname;
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(path);
    if (file) {
      const found = [...this.files.values()].find((entry) => entry.path === file[2]);
      if (file[1] !== this.token || found === undefined) {
        response.writeHead(404).end("Not Found");
        return;
      }
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(found.data);
      return;
    }
    const call = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(path);
    if (!call) return send(response, fail(404, "Not Found"));
    const params = await readParams(request);
    const method = call[2] as string;
    this.requests.push({ method, params });
    if (call[1] !== this.token) return send(response, fail(401, "Unauthorized"));
    const raw = this.rawAnswers.get(method);
    if (raw) {
      this.rawAnswers.delete(method);
      response.writeHead(raw.status, { "content-type": "text/plain" }).end(raw.body);
      return;
    }
    const failure = this.failures.get(method)?.shift();
    if (failure)
      return send(response, fail(failure.error_code, failure.description, failure.retry_after));
    send(response, await this.answer(method, params));
  }

  private async answer(method: string, params: Record<string, unknown>): Promise<Answer> {
    switch (method) {
      case "getMe":
        return ok({
          id: this.botId,
          is_bot: true,
          first_name: "Baton Test",
          username: this.botUserName,
        });
      case "sendMessage":
        return this.store(params, "text", MESSAGE_LIMIT);
      case "sendPhoto":
      case "sendVideo":
      case "sendAudio":
      case "sendDocument":
        return this.store(
          params,
          "caption",
          CAPTION_LIMIT,
          method.slice("send".length).toLowerCase(),
        );
      case "editMessageText":
        return this.edit(params);
      case "deleteMessage": {
        const found = this.find(params);
        if (!found) return fail(400, "Bad Request: message to delete not found");
        found.deleted = true;
        return ok(true);
      }
      case "setMessageReaction": {
        const found = this.find(params);
        if (!found) return fail(400, "Bad Request: message to react not found");
        found.reactions = Array.isArray(params.reaction) ? params.reaction : [];
        return ok(true);
      }
      case "sendChatAction":
        return params.chat_id === undefined || params.action === undefined
          ? fail(400, "Bad Request: chat_id and action are required")
          : ok(true);
      case "answerCallbackQuery":
        return typeof params.callback_query_id === "string"
          ? ok(true)
          : fail(
              400,
              "Bad Request: query is too old and response timeout expired or query ID is invalid",
            );
      case "getFile": {
        const found = this.files.get(String(params.file_id));
        if (!found) return fail(400, "Bad Request: invalid file_id");
        return ok({
          file_id: params.file_id,
          file_unique_id: params.file_id,
          file_size: found.data.length,
          file_path: found.path,
        });
      }
      case "getChat": {
        const chat = this.chats.get(String(params.chat_id));
        return chat ? ok(chat) : fail(400, "Bad Request: chat not found");
      }
      case "getChatMemberCount": {
        const chat = this.chats.get(String(params.chat_id));
        const count = chat?.member_count;
        return typeof count === "number" ? ok(count) : fail(400, "Bad Request: chat not found");
      }
      case "setWebhook":
        this.webhookUrl = String(params.url ?? "");
        return ok(true);
      case "deleteWebhook":
        this.webhookUrl = "";
        return ok(true);
      case "getWebhookInfo":
        return ok({
          url: this.webhookUrl,
          has_custom_certificate: false,
          pending_update_count: this.updates.length,
        });
      case "getUpdates":
        return this.poll(params);
      default:
        return fail(404, "Not Found: method not found");
    }
  }

  private store(
    params: Record<string, unknown>,
    field: "text" | "caption",
    limit: number,
    media?: string,
  ): Answer {
    if (params.chat_id === undefined) return fail(400, "Bad Request: chat_id is empty");
    if (media !== undefined && params[media] === undefined)
      return fail(400, `Bad Request: there is no ${media} in the request`);
    const raw = params[field];
    if (field === "text" && (typeof raw !== "string" || raw === ""))
      return fail(400, "Bad Request: message text is empty");
    let visible: string | undefined;
    if (typeof raw === "string") {
      const checked = checkText(raw, params.parse_mode, limit);
      if (typeof checked !== "string") return checked;
      visible = checked;
      if (field === "text" && visible.trim() === "")
        return fail(400, "Bad Request: message text is empty");
    }
    const badMarkup = checkMarkup(params.reply_markup);
    if (badMarkup) return badMarkup;
    const chatId = String(params.chat_id);
    const topic =
      params.message_thread_id === undefined ? undefined : Number(params.message_thread_id);
    const message: FakeTelegramMessage = {
      message_id: this.nextMessageId++,
      chat_id: chatId,
      ...(topic === undefined ? {} : { message_thread_id: topic }),
      ...(visible === undefined ? {} : { [field]: visible }),
      ...(params.parse_mode === undefined ? {} : { parse_mode: String(params.parse_mode) }),
      ...(params.reply_markup === undefined ? {} : { reply_markup: params.reply_markup }),
      reactions: [],
      deleted: false,
    };
    this.messages.set(chatId, [...(this.messages.get(chatId) ?? []), message]);
    return ok(this.asTelegram(message));
  }

  private edit(params: Record<string, unknown>): Answer {
    const found = this.find(params);
    if (!found) return fail(400, "Bad Request: message to edit not found");
    if (typeof params.text !== "string" || params.text === "")
      return fail(400, "Bad Request: message text is empty");
    const checked = checkText(params.text, params.parse_mode, MESSAGE_LIMIT);
    if (typeof checked !== "string") return checked;
    if (checked === found.text && params.reply_markup === undefined) {
      return fail(
        400,
        "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    }
    found.text = checked;
    if (params.reply_markup !== undefined) found.reply_markup = params.reply_markup;
    return ok(this.asTelegram(found));
  }

  private find(params: Record<string, unknown>): FakeTelegramMessage | undefined {
    return this.sentTo(String(params.chat_id)).find(
      (message) => message.message_id === Number(params.message_id) && !message.deleted,
    );
  }

  private asTelegram(message: FakeTelegramMessage) {
    const chatId = Number(message.chat_id);
    return {
      message_id: message.message_id,
      date: Math.floor(Date.now() / 1_000),
      chat: { id: chatId, type: chatId > 0 ? "private" : "supergroup" },
      from: { id: this.botId, is_bot: true, first_name: "Baton Test", username: this.botUserName },
      ...(message.message_thread_id === undefined
        ? {}
        : { message_thread_id: message.message_thread_id, is_topic_message: true }),
      ...(message.text === undefined ? {} : { text: message.text }),
      ...(message.caption === undefined ? {} : { caption: message.caption }),
    };
  }

  private async poll(params: Record<string, unknown>): Promise<Answer> {
    if (this.webhookUrl !== "") {
      return fail(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    }
    if (this.activePoll) {
      // Telegram ends the older request when a second poller calls.
      this.pollConflicts += 1;
      this.activePoll.done(
        fail(
          409,
          "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
        ),
      );
    }
    const offset = params.offset === undefined ? undefined : Number(params.offset);
    if (offset !== undefined) {
      while ((this.updates[0]?.update_id ?? Number.POSITIVE_INFINITY) < offset)
        this.updates.shift();
    }
    const limit = Number(params.limit ?? 100);
    const timeoutMs = Number(params.timeout ?? 0) * 1_000;
    if (this.updates.length === 0 && timeoutMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        const wake = () => done();
        const waiters = this.waiters;
        function done() {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        }
        waiters.add(wake);
        this.activePoll = { done: () => done() };
      }).finally(() => {
        this.activePoll = undefined;
      });
    }
    return ok(this.updates.slice(0, limit));
  }
}

/** Starts a fake Bot API on a free local port. */
export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token =
    options.token ??
    `${100_000 + Math.floor(Math.random() * 899_999)}:${randomBytes(12).toString("base64url")}`;
  let fake: FakeTelegram | undefined;
  const server = createServer((request, response) => {
    fake?.serve(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake = new FakeTelegram(
    server,
    `http://127.0.0.1:${port}`,
    token,
    options.botUserName ?? "baton_test_bot",
  );
  return fake;
}
