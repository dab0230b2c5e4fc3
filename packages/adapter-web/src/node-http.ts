import type { IncomingMessage, ServerResponse } from "node:http";
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
