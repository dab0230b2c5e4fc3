import { Chat, type ChatConfig } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createWebAdapter, type WebAdapterOptions } from "../src/index.js";

/** Where the test server mounts the adapter. */
export const BASE_URL = "http://localhost/api/web";

/**
 * Identity from an `x-user` header, `id` or `id|Display Name`: what a host does with its
 * session cookie, without a session store.
 */
export function identifyByHeader(request: Request) {
  const value = request.headers.get("x-user");
  if (!value) return null;
  const [userId = "", userName = userId] = value.split("|");
  return { userId, userName };
}

/** A real `Chat` on the memory state with the web adapter (bot `@bot`, user id `bot`), initialized. */
export async function createWebHarness(
  options: {
    adapter?: Partial<WebAdapterOptions>;
    chat?: Partial<Omit<ChatConfig, "adapters" | "state">>;
  } = {},
) {
  const web = createWebAdapter({ identify: identifyByHeader, ...options.adapter });
  const state = createMemoryState();
  const chat = new Chat({
    userName: "bot",
    adapters: { web },
    state,
    logger: "silent",
    ...options.chat,
  });
  await chat.initialize();

  /** `POST …/messages` as `user` with a JSON body (or a raw string body). */
  function post(user: string | null, body: unknown, init: RequestInit = {}) {
    const headers = new Headers({ "content-type": "application/json", ...(init.headers ?? {}) });
    if (user !== null) headers.set("x-user", user);
    return chat.webhooks.web?.(
      new Request(`${BASE_URL}/messages`, {
        method: "POST",
        body: typeof body === "string" ? body : JSON.stringify(body),
        ...init,
        headers,
      }),
    ) as Promise<Response>;
  }

  /** Opens `GET …/events` as `user`; abort `controller` to hang up. */
  async function events(user: string, threadId?: string) {
    const controller = new AbortController();
    const query = threadId === undefined ? "" : `?threadId=${encodeURIComponent(threadId)}`;
    const response = (await chat.webhooks.web?.(
      new Request(`${BASE_URL}/events${query}`, {
        headers: { "x-user": user },
        signal: controller.signal,
      }),
    )) as Response;
    return { response, controller, reader: response.body ? sseReader(response.body) : undefined };
  }

  return { chat, web, state, post, events };
}

/** One parsed server-sent event; comments are kept as `event: "comment"`. */
export interface SseEvent {
  event: string;
  data: Record<string, unknown> & { type?: string };
  raw: string;
}

/** Reads server-sent events from a response body, as a browser's EventSource would. */
export function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const seen: SseEvent[] = [];
  let ended = false;

  async function pull(): Promise<boolean> {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      return false;
    }
    buffer += decoder.decode(value, { stream: true });
    for (let at = buffer.indexOf("\n\n"); at !== -1; at = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      seen.push(parseBlock(block));
    }
    return true;
  }

  /**
   * Resolves with the first event (from the start of the stream) matching `match` that was not
   * returned before, reading more as needed; rejects after `timeoutMs` or when the stream ends.
   */
  const taken = new Set<SseEvent>();
  async function next(match: (event: SseEvent) => boolean, timeoutMs = 3_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = seen.find((event) => !taken.has(event) && match(event));
      if (found) {
        taken.add(found);
        return found;
      }
      if (ended) throw new Error(`the stream ended before a matching event; saw ${describe(seen)}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new Error(`no matching event within ${timeoutMs} ms; saw ${describe(seen)}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), remaining);
      });
      pending ??= pull().finally(() => {
        pending = undefined;
      });
      await Promise.race([pending, timeout]);
      clearTimeout(timer);
    }
  }
  let pending: Promise<boolean> | undefined;

  /** Resolves true once the stream has ended (the server closed it), false after `timeoutMs`. */
  async function ends(timeoutMs = 3_000): Promise<boolean> {
    try {
      await next(() => false, timeoutMs);
    } catch {
      return ended;
    }
    return ended;
  }

  return { next, ends, seen, cancel: () => reader.cancel() };
}

function parseBlock(block: string): SseEvent {
  let event = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) event = "comment";
    else if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
    else if (line.startsWith("retry: ")) event = "retry";
  }
  return { event, data: data === "" ? {} : JSON.parse(data), raw: block };
}

function describe(events: readonly SseEvent[]): string {
  return JSON.stringify(events.map((event) => event.event));
}
