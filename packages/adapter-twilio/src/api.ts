import { type Clock, ConfigError, type Logger, sleep, ValidationError } from "@baton/core";
import twilio from "twilio";
import type RequestClient from "twilio/lib/base/RequestClient.js";
import type TwilioHttpResponse from "twilio/lib/http/response.js";
import { twilioApiError } from "./errors.js";

/** What the REST client is built from. */
export interface TwilioApiOptions {
  readonly accountSid: string | undefined;
  readonly authToken: string | undefined;
  readonly apiKeySid: string | undefined;
  readonly apiKeySecret: string | undefined;
  readonly apiUrl: string | undefined;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
  readonly clock: Clock;
  readonly logger: () => Logger;
}

/** One outbound message, in the Messages API's terms. */
export interface TwilioSendParams {
  readonly to: string;
  /** A number or `whatsapp:` address; mutually exclusive with `messagingServiceSid`. */
  readonly from?: string;
  readonly messagingServiceSid?: string;
  readonly body?: string;
  readonly mediaUrl?: readonly string[];
  readonly statusCallback?: string;
  /** A Content template (`HX…`) to send instead of `body`, e.g. a WhatsApp quick reply. */
  readonly contentSid?: string;
  /** The template's variables, as the JSON object string Twilio expects. */
  readonly contentVariables?: string;
}

/** The fields of a Content template the adapter uses. */
export interface TwilioContentResource {
  readonly sid: string;
  readonly friendlyName: string;
}

/** The fields of a Call resource the adapter uses. */
export interface TwilioCallResource {
  readonly sid: string;
  readonly status: string;
}

/** What a live call is told to do next: new TwiML, or a URL that answers with TwiML. */
export type TwilioCallUpdate =
  | { readonly twiml: string; readonly url?: undefined; readonly method?: undefined }
  | { readonly url: string; readonly method?: "GET" | "POST"; readonly twiml?: undefined };

/** The fields of a Message resource the adapter uses. */
export interface TwilioMessageResource {
  readonly sid: string;
  readonly to: string;
  readonly from: string | null;
  readonly body: string | null;
  readonly status: string;
  readonly messagingServiceSid: string | null;
  readonly dateCreated: Date | null;
}

const MAX_RETRY_DELAY_MS = 8_000;

function toResource(message: {
  sid: string;
  to: string;
  from: string | null;
  body: string | null;
  status: string;
  messagingServiceSid: string | null;
  dateCreated: Date | null;
}): TwilioMessageResource {
  return {
    sid: message.sid,
    to: message.to,
    from: message.from,
    body: message.body,
    status: message.status,
    messagingServiceSid: message.messagingServiceSid,
    dateCreated: message.dateCreated,
  };
}

/**
 * An HTTP client of the `twilio` library that sends every `*.twilio.com` request to `baseUrl`
 * instead, path and query kept: how `apiUrl` reaches the library (it takes an `httpClient`).
 */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly baseUrl: string) {
    super({ autoRetry: false });
  }

  override request<TData>(
    opts: RequestClient.RequestOptions<TData>,
  ): Promise<TwilioHttpResponse<TData>> {
    return super.request<TData>({ ...opts, uri: rebaseTwilioUrl(opts.uri, this.baseUrl) });
  }
}

/** `uri` on `baseUrl` when it targets a Twilio host; any other URL unchanged. */
export function rebaseTwilioUrl(uri: string, baseUrl: string | undefined): string {
  if (baseUrl === undefined) return uri;
  const url = new URL(uri);
  if (url.hostname !== "twilio.com" && !url.hostname.endsWith(".twilio.com")) return uri;
  return `${baseUrl}${url.pathname}${url.search}`;
}

/** True for an https URL on a Twilio host, where media may be fetched with credentials. */
export function isTwilioMediaUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return protocol === "https:" && (hostname === "twilio.com" || hostname.endsWith(".twilio.com"));
  } catch {
    return false;
  }
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** True for answers worth another try: Twilio's rate limit and its server errors. */
function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  return status === 429 || (status !== undefined && status >= 500);
}

/**
 * Every outbound call to Twilio, through the official `twilio` library: its REST client for
 * messages and the WhatsApp typing indicator, its HTTP client for media. Calls refused with 429
 * or 5xx are retried with exponential backoff on the injected clock; other failures become
 * Baton `AdapterError`s naming Twilio's error code.
 */
export class TwilioApi {
  private client: twilio.Twilio | undefined;

  constructor(private readonly options: TwilioApiOptions) {}

  /** The account every call is made on (Content SIDs and message SIDs belong to it). */
  get accountSid(): string | undefined {
    return this.options.accountSid;
  }

  /** Sends one message (`POST …/Messages.json`). */
  async sendMessage(params: TwilioSendParams): Promise<TwilioMessageResource> {
    const client = this.rest("send a message");
    const created = await this.withRetry("send a message", () =>
      client.messages.create({
        to: params.to,
        ...(params.from === undefined ? {} : { from: params.from }),
        ...(params.messagingServiceSid === undefined
          ? {}
          : { messagingServiceSid: params.messagingServiceSid }),
        ...(params.body === undefined ? {} : { body: params.body }),
        ...(params.mediaUrl === undefined ? {} : { mediaUrl: [...params.mediaUrl] }),
        ...(params.statusCallback === undefined ? {} : { statusCallback: params.statusCallback }),
        ...(params.contentSid === undefined ? {} : { contentSid: params.contentSid }),
        ...(params.contentVariables === undefined
          ? {}
          : { contentVariables: params.contentVariables }),
      }),
    );
    return toResource(created);
  }

  /**
   * Creates a Content template (`POST content.twilio.com/v1/Content`). `request` is in the
   * Content API's own JSON names (`friendly_name`, `types: { "twilio/quick-reply": … }`): the
   * library sends the object as given, and its camel-cased request type has no way to name a
   * content type.
   */
  async createContent(request: Record<string, unknown>): Promise<TwilioContentResource> {
    const client = this.rest("create a content template");
    const created = await this.withRetry("create a content template", () =>
      client.content.v1.contents.create(
        request as unknown as Parameters<typeof client.content.v1.contents.create>[0],
      ),
    );
    return { sid: created.sid, friendlyName: created.friendlyName };
  }

  /** The account's Content template named `friendlyName`, if there is one (pages through all). */
  async findContent(friendlyName: string): Promise<TwilioContentResource | undefined> {
    const client = this.rest("list content templates");
    const listed = await this.withRetry("list content templates", () =>
      client.content.v1.contents.list({ pageSize: 100 }),
    );
    const found = listed.find((content) => content.friendlyName === friendlyName);
    return found === undefined ? undefined : { sid: found.sid, friendlyName: found.friendlyName };
  }

  /**
   * Tells a live call what to do next (`POST …/Calls/{sid}.json`): either new TwiML or a URL
   * Twilio fetches TwiML from — never both, never neither (Twilio treats them as exclusive).
   */
  async updateCall(callSid: string, update: TwilioCallUpdate): Promise<TwilioCallResource> {
    const { twiml, url, method } = update as { twiml?: string; url?: string; method?: string };
    if ((twiml === undefined) === (url === undefined)) {
      throw new ValidationError(
        "a call update takes twiml or url: the two are mutually exclusive, and one is required",
        { step: "update twilio call" },
      );
    }
    const client = this.rest("update a call");
    const updated = await this.withRetry("update a call", () =>
      client
        .calls(callSid)
        .update(
          twiml === undefined
            ? { url: url as string, ...(method === undefined ? {} : { method }) }
            : { twiml },
        ),
    );
    return { sid: updated.sid, status: updated.status };
  }

  /** One Message resource by sid (`GET …/Messages/{sid}.json`). */
  async fetchMessage(sid: string): Promise<TwilioMessageResource> {
    const client = this.rest("fetch a message");
    return toResource(await this.withRetry("fetch a message", () => client.messages(sid).fetch()));
  }

  /** The account's messages between two addresses, newest first (`GET …/Messages.json`). */
  async listMessages(filter: {
    readonly from?: string;
    readonly to?: string;
    readonly limit?: number;
  }): Promise<TwilioMessageResource[]> {
    const client = this.rest("list messages");
    const listed = await this.withRetry("list messages", () =>
      client.messages.list({
        ...(filter.from === undefined ? {} : { from: filter.from }),
        ...(filter.to === undefined ? {} : { to: filter.to }),
        limit: filter.limit ?? 50,
      }),
    );
    return listed.map(toResource);
  }

  /**
   * Any Twilio REST call not wrapped here, through the library's own request method: `uri` is an
   * absolute Twilio URL, `data` the form parameters. Resolves with the parsed JSON body.
   */
  async request(call: {
    readonly method: "get" | "post" | "delete";
    readonly uri: string;
    readonly data?: Record<string, string | readonly string[]>;
  }): Promise<unknown> {
    const client = this.rest("call the REST API");
    const response = await this.withRetry("call the REST API", async () => {
      const answer = await client.request({
        method: call.method,
        uri: call.uri,
        ...(call.data === undefined ? {} : { data: call.data }),
      });
      if (answer.statusCode >= 400) {
        throw new twilio.RestException({ statusCode: answer.statusCode, body: answer.body });
      }
      return answer;
    });
    return typeof response.body === "string" && response.body !== ""
      ? JSON.parse(response.body)
      : response.body;
  }

  /** Deletes a message from the account's log (`DELETE …/Messages/{sid}.json`). */
  async deleteMessage(sid: string): Promise<void> {
    const client = this.rest("delete a message");
    await this.withRetry("delete a message", () => client.messages(sid).remove());
  }

  /** Shows WhatsApp's typing indicator in reply to the inbound message `messageSid`. */
  async sendTypingIndicator(messageSid: string): Promise<void> {
    const client = this.rest("show the typing indicator");
    await this.withRetry("show the typing indicator", () =>
      client.messaging.v2.typingIndicator.create({ channel: "whatsapp", messageId: messageSid }),
    );
  }

  /**
   * Downloads a media item with the account's credentials (Twilio redirects to the file). Only a
   * URL on a Twilio host (`https://…twilio.com/`, regional ones included) is fetched: the
   * account's credentials are never sent anywhere else.
   */
  async fetchMedia(url: string): Promise<Uint8Array> {
    if (!isTwilioMediaUrl(url)) {
      throw twilioApiError("fetch media", new Error(`refusing media from untrusted ${url}`));
    }
    const client = this.rest("fetch media");
    const [username, password] = this.credentials("fetch media");
    const response = await this.withRetry("fetch media", async () => {
      const answer = await client.httpClient.axios.get<ArrayBuffer>(
        rebaseTwilioUrl(url, this.options.apiUrl),
        {
          auth: { username, password },
          responseType: "arraybuffer",
          maxRedirects: 5,
          validateStatus: () => true,
        },
      );
      if (answer.status >= 400) {
        throw Object.assign(new Error(`media request answered ${answer.status}`), {
          status: answer.status,
        });
      }
      return answer;
    });
    return new Uint8Array(response.data);
  }

  private credentials(step: string): [string, string] {
    const { accountSid, authToken, apiKeySid, apiKeySecret } = this.options;
    if (accountSid === undefined) {
      throw new ConfigError([`twilio adapter: accountSid is needed to ${step}`]);
    }
    if (apiKeySid !== undefined && apiKeySecret !== undefined) return [apiKeySid, apiKeySecret];
    if (authToken === undefined) {
      throw new ConfigError([
        `twilio adapter: authToken (or apiKeySid + apiKeySecret) is needed to ${step}`,
      ]);
    }
    return [accountSid, authToken];
  }

  private rest(step: string): twilio.Twilio {
    if (this.client) return this.client;
    const [username, password] = this.credentials(step);
    const { apiUrl, accountSid } = this.options;
    this.client = twilio(username, password, {
      ...(accountSid === undefined ? {} : { accountSid }),
      autoRetry: false,
      ...(apiUrl === undefined ? {} : { httpClient: new RebasedRequestClient(apiUrl) }),
    });
    return this.client;
  }

  private async withRetry<T>(step: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        if (!isRetryable(error) || attempt >= this.options.maxRetries) {
          throw twilioApiError(step, error);
        }
        const delayMs = Math.min(this.options.retryBaseDelayMs * 2 ** attempt, MAX_RETRY_DELAY_MS);
        this.options.logger().warn(`twilio: ${step} was refused; retrying`, {
          status: statusOf(error),
          attempt: attempt + 1,
          delayMs,
        });
        await sleep(this.options.clock, delayMs);
      }
    }
  }
}
