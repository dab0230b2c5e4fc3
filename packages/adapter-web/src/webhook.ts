import {
  type Adapter,
  type ChatHost,
  type Message,
  type ProcessOptions,
  type ReceiveResult,
  type WebhookOptions,
  webhookErrorResponse,
} from "@baton/core";
import type { WebPlatform } from "./api.js";
import type { WebEventHub } from "./event-stream.js";
import type { WebEvent } from "./format.js";
import type { ResolvedWebAdapterOptions, WebIdentity } from "./options.js";
import { parsePostBody, readJsonBody, type WebRequestProblem } from "./parse.js";
import { DM_THREAD_NAME, type WebThreadData } from "./thread-id.js";
import { verifyRequest } from "./verify.js";

/** The JSON body of every `POST …/messages` answer. */
export type WebPostResponseBody =
  | {
      ok: true;
      messageId: string;
      threadId: string;
      outcome: ReceiveResult["outcome"];
      reason?: string;
    }
  | { ok: false; code: string; error: string };

/** What the request handler needs from its adapter. */
export interface WebRequestTarget {
  readonly adapter: Adapter<WebThreadData>;
  readonly host: ChatHost | undefined;
  readonly options: ResolvedWebAdapterOptions;
  readonly platform: WebPlatform;
  readonly hub: WebEventHub;
  /** Parses a raw web message (see `parseWebMessage`). */
  parse(raw: unknown): Message;
}

/**
 * Serves the two endpoints of the web adapter, told apart by the last path segment, so the host
 * may mount them under any prefix: `POST …/messages` and `GET …/events`. Anything else is 404,
 * a wrong method 405.
 */
export function handleWebRequest(
  target: WebRequestTarget,
  request: Request,
  options: WebhookOptions = {},
): Promise<Response> {
  const endpoint = new URL(request.url).pathname.split("/").filter(Boolean).at(-1);
  const allowed = endpoint === "messages" ? "POST" : endpoint === "events" ? "GET" : undefined;
  if (allowed === undefined) {
    return Promise.resolve(
      json(404, {
        ok: false,
        code: "NOT_FOUND",
        error: "the web adapter serves …/messages and …/events",
      }),
    );
  }
  if (request.method !== allowed) {
    return Promise.resolve(
      json(
        405,
        { ok: false, code: "METHOD_NOT_ALLOWED", error: `use ${allowed} for …/${endpoint}` },
        { allow: allowed },
      ),
    );
  }
  return endpoint === "messages"
    ? postMessage(target, request, options)
    : openEvents(target, request);
}

/**
 * `POST …/messages`: verify (identify) → read and validate the body → hand the message to
 * `chat.receiveMessage` → answer 202 `{ ok, messageId, threadId, outcome: "accepted" }` under
 * deferred dispatch (200 with the final outcome otherwise). Refusals: 401 no identity, 415 not
 * JSON, 413 too large, 400 malformed, 403 another user's thread, 503 (with `Retry-After`) while
 * the adapter is not attached to a running `Chat`, and core's `webhookErrorResponse` when the
 * runtime refuses (503 admission or State, 400 validation, 500 otherwise).
 */
async function postMessage(
  target: WebRequestTarget,
  request: Request,
  options: WebhookOptions,
): Promise<Response> {
  const host = target.host;
  if (!host) {
    const error = "the bot is not running (starting, restarting or shut down); retry shortly";
    return json(503, { ok: false, code: "NOT_READY", error }, { "retry-after": "1" });
  }
  const verified = await verifyRequest(request, target.options.identify);
  if (!verified.ok) {
    if (verified.status === 500) {
      host.getLogger("adapter-web").error("identify failed", { error: verified.cause });
    }
    return json(verified.status, { ok: false, code: verified.code, error: verified.error });
  }
  const { identity } = verified;
  const read = await readJsonBody(request, target.options.maxBodyBytes);
  if (!read.ok) return problem(read.problem);
  const parsed = parsePostBody(read.value, target.options.maxTextLength);
  if (!parsed.ok) return problem(parsed.problem);
  const { body } = parsed;
  const thread = resolveThread(target, identity, body.threadId);
  if ("problem" in thread) return problem(thread.problem);

  let message: Message;
  try {
    message = target.parse({
      id:
        body.id === undefined
          ? `${identity.userId}.${crypto.randomUUID()}`
          : `${identity.userId}.${body.id}`,
      threadId: thread.threadId,
      text: body.text,
      userId: identity.userId,
      userName: identity.userName,
      dateSentMs: target.options.clock.now(),
    });
  } catch (error) {
    return webhookErrorResponse(error);
  }
  const arrivalSeq = target.platform.reserveSeq();
  // Each user counts as a tenant, so `maxDetachedPerTenant` keeps one browser from taking every
  // admission slot of the bot.
  const processOptions: ProcessOptions = { tenantId: identity.userId };
  if (options.waitUntil) processOptions.waitUntil = options.waitUntil;
  let result: ReceiveResult;
  try {
    result = await host.receiveMessage(target.adapter, thread.threadId, message, processOptions);
  } catch (error) {
    return webhookErrorResponse(error);
  }
  // Kept only once accepted: a refused message must not show up as if it had been sent. A
  // duplicate is the retry of one already kept. It sorts by its arrival, so a reply published
  // first (sync dispatch) still shows below it.
  if (result.outcome !== "duplicate") target.platform.recordInbound(message, arrivalSeq);
  const answer: WebPostResponseBody = {
    ok: true,
    messageId: message.id,
    threadId: thread.threadId,
    outcome: result.outcome,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
  };
  return json(result.outcome === "accepted" ? 202 : 200, answer);
}

/**
 * `GET …/events[?threadId=…]`: the user's server-sent event stream — `hello`, a `snapshot` of
 * each thread with kept messages, then live `message`, `edit`, `delete`, `reaction` and
 * `typing` events. Served whether or not a `Chat` is attached, so pages stay connected while
 * the bot restarts.
 */
async function openEvents(target: WebRequestTarget, request: Request): Promise<Response> {
  const verified = await verifyRequest(request, target.options.identify);
  if (!verified.ok) {
    return json(verified.status, { ok: false, code: verified.code, error: verified.error });
  }
  const { identity } = verified;
  const requested = new URL(request.url).searchParams.get("threadId") ?? undefined;
  const thread = requested === undefined ? undefined : resolveThread(target, identity, requested);
  if (thread && "problem" in thread) return problem(thread.problem);
  const hello: WebEvent = {
    type: "hello",
    userId: identity.userId,
    userName: identity.userName,
    dmThreadId: target.adapter.encodeThreadId({
      userId: identity.userId,
      threadName: DM_THREAD_NAME,
    }),
    serverNowMs: target.options.clock.now(),
  };
  const audience =
    thread === undefined
      ? { userId: identity.userId }
      : { userId: identity.userId, threadId: thread.threadId };
  const stream = target.hub.open(audience, {
    initial: [hello, ...target.platform.snapshots(identity.userId, thread?.threadId)],
    heartbeatMs: target.options.heartbeatMs,
    reconnectDelayMs: target.options.reconnectDelayMs,
    request,
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // Reverse proxies (nginx) would otherwise buffer the stream and deliver it in lumps.
      "x-accel-buffering": "no",
    },
  });
}

function resolveThread(
  target: WebRequestTarget,
  identity: WebIdentity,
  threadId: string | undefined,
): { threadId: string } | { problem: WebRequestProblem } {
  if (threadId === undefined) {
    return {
      threadId: target.adapter.encodeThreadId({
        userId: identity.userId,
        threadName: DM_THREAD_NAME,
      }),
    };
  }
  let data: WebThreadData;
  try {
    data = target.adapter.decodeThreadId(threadId);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { problem: { status: 400, code: "INVALID_BODY", error: detail } };
  }
  if (data.userId !== identity.userId) {
    return {
      problem: { status: 403, code: "FORBIDDEN", error: "that thread belongs to another user" },
    };
  }
  return { threadId };
}

function problem(found: WebRequestProblem): Response {
  return json(found.status, { ok: false, code: found.code, error: found.error });
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
