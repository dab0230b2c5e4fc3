import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/**
 * The web `Request` for a Node request. Its `signal` aborts when the client goes away, which
 * is how a server-sent event stream learns to unsubscribe. The body is streamed, not buffered,
 * so the adapter's size limit applies while reading.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  // The Host header only places the path in a URL here; nothing trusts it.
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = "half";
  }
  return new Request(url, init);
}

/**
 * Writes a web `Response` to a Node response, streaming its body with backpressure. When the
 * client goes away the body is cancelled, so a server-sent event stream is cleaned up.
 */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // Event streams must reach the browser before their first event.
  res.flushHeaders();
  const reader = response.body.getReader();
  const onClose = () => {
    reader.cancel().catch(() => {});
  };
  res.on("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // The client went away or the body failed; either way there is nobody left to tell.
  } finally {
    res.off("close", onClose);
    res.end();
  }
}

/** Resolves when `res` can take more data, or when it closed (so a gone client cannot hang us). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Options of {@link serveWebHandler}. */
export interface ServeWebHandlerOptions {
  /** The port; 0 picks a free one. Default 3000. */
  readonly port?: number;
  /** The interface to listen on. Default `127.0.0.1`, so nothing is exposed by accident. */
  readonly host?: string;
  /**
   * The response when the handler throws (it is also given the error to log). Default: a 500
   * with `{ ok: false, error: "internal error" }`, which leaks nothing about the failure.
   */
  readonly onError?: (error: unknown) => Response;
}

/** A node:http server running a web handler, from {@link serveWebHandler}. */
export interface ServedWebHandler {
  readonly server: Server;
  /** The port it listens on (the chosen one when asked for 0). */
  readonly port: number;
  /** `http://localhost:{port}` */
  readonly url: string;
  /**
   * Stops accepting requests and resolves once the server is closed. Open connections — idle
   * keep-alive sockets and event streams — are closed too, so this never waits on a client.
   */
  close(): Promise<void>;
}

/**
 * Runs `handle` (a fetch-style `Request → Response` handler, e.g. one that routes to
 * `chat.webhooks.web`) on a node:http server, through {@link toWebRequest} and
 * {@link sendWebResponse}. Resolves once the server listens; rejects when it cannot (a port in
 * use). Every request gets a response: a throwing handler answers `onError`'s.
 */
export async function serveWebHandler(
  handle: (request: Request) => Promise<Response> | Response,
  options: ServeWebHandlerOptions = {},
): Promise<ServedWebHandler> {
  const onError =
    options.onError ?? (() => jsonResponse(500, { ok: false, error: "internal error" }));
  const server = createServer((req, res) => {
    const request = toWebRequest(req, res);
    Promise.resolve()
      .then(() => handle(request))
      .catch((error: unknown) => onError(error))
      .then((response) => sendWebResponse(response, res));
  });
  const port = await listen(server, options.port ?? 3000, options.host ?? "127.0.0.1");
  return {
    server,
    port,
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A JSON response with `status`: the shape the reference servers answer their routes with. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
