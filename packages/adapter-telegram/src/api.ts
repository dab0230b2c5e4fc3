import { type Clock, type Logger, sleep, ValidationError } from "@baton/core";
import { Telegram } from "telegraf";
import { TelegramNetworkError, TelegramRateLimitError, telegramApiError } from "./errors.js";
import type { TelegramBotToken } from "./options.js";

/** What the Bot API client is built from. */
export interface TelegramApiOptions {
  readonly botToken: TelegramBotToken;
  readonly apiUrl: string;
  readonly maxRetries: number;
  readonly maxRetryAfterMs: number;
  readonly clock: Clock;
  readonly logger: () => Logger;
}

/** The shape of telegraf's `TelegramError` the client reads. */
interface TelegrafFailure {
  response?: {
    error_code?: unknown;
    description?: unknown;
    parameters?: { retry_after?: unknown };
  };
}

function failureOf(error: unknown): TelegrafFailure["response"] | undefined {
  const response = (error as TelegrafFailure | null)?.response;
  return typeof response === "object" &&
    response !== null &&
    typeof response.error_code === "number"
    ? response
    : undefined;
}

/**
 * The Bot API, through telegraf's `Telegram` client only (its fetch, JSON and multipart
 * handling): `apiRoot` is the configured `apiUrl`, so tests point it at the offline fake. Every
 * call resolves the token again (a resolver may rotate it), waits out a 429's `retry_after` on
 * the injected clock up to `maxRetries` times, and maps refusals to the adapter's error classes.
 */
export class TelegramApi {
  private client: { token: string; telegram: Telegram } | undefined;

  constructor(private readonly options: TelegramApiOptions) {}

  /** The current bot token; a resolver answering nothing is refused before any request. */
  async token(): Promise<string> {
    const { botToken } = this.options;
    const token = typeof botToken === "function" ? await botToken() : botToken;
    if (typeof token !== "string" || token.trim() === "") {
      throw new ValidationError("the bot token resolver returned an empty token", {
        step: "resolve telegram bot token",
      });
    }
    return token.trim();
  }

  private async telegram(): Promise<Telegram> {
    const token = await this.token();
    if (this.client?.token !== token) {
      const telegram = new Telegram(token, { apiRoot: this.options.apiUrl, webhookReply: false });
      this.client = { token, telegram };
    }
    return this.client.telegram;
  }

  /** Calls Bot API `method` with `payload`; resolves with Telegram's `result`. */
  async call<T = unknown>(
    method: string,
    payload: Record<string, unknown> = {},
    signal?: AbortSignal,
  ): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      const telegram = await this.telegram();
      try {
        const result = await telegram.callApi(method as never, payload as never, {
          signal: signal as never,
        });
        if (result === undefined) {
          throw new TelegramNetworkError(method, "the response carried no result");
        }
        return result as T;
      } catch (error) {
        if (error instanceof TelegramNetworkError) throw error;
        const failure = failureOf(error);
        if (failure === undefined) {
          if (signal?.aborted) throw error;
          throw new TelegramNetworkError(method, (error as Error)?.message ?? String(error), {
            cause: error,
          });
        }
        const code = failure.error_code as number;
        const description = String(failure.description ?? "");
        if (code !== 429) throw telegramApiError(method, code, description, error);
        const retryAfter = Number(failure.parameters?.retry_after);
        const retryAfterMs = Number.isFinite(retryAfter) ? retryAfter * 1_000 : undefined;
        const waitMs = retryAfterMs ?? 1_000;
        if (attempt >= this.options.maxRetries || waitMs > this.options.maxRetryAfterMs) {
          throw new TelegramRateLimitError(method, retryAfterMs, { cause: error });
        }
        this.options.logger().warn("telegram: rate limited, retrying", { method, waitMs });
        await sleep(this.options.clock, waitMs, signal);
      }
    }
  }

  /** The download URL of a file Telegram stores (`getFile`'s `file_path`). */
  async fileUrl(filePath: string): Promise<string> {
    return `${this.options.apiUrl}/file/bot${await this.token()}/${filePath}`;
  }

  /** Downloads a file by its `file_id`: `getFile`, then the file itself (token resolved anew). */
  async downloadFile(fileId: string): Promise<Buffer> {
    const file = await this.call<{ file_path?: string }>("getFile", { file_id: fileId });
    if (!file.file_path) throw new TelegramNetworkError("getFile", "the file has no file_path");
    const response = await fetch(await this.fileUrl(file.file_path));
    if (!response.ok) {
      throw new TelegramNetworkError(
        "download file",
        `the file server answered ${response.status}`,
      );
    }
    return Buffer.from(await response.arrayBuffer());
  }
}
