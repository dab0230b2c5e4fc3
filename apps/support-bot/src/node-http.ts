import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * The web `Request` for a Node request, which is what Baton's webhooks take. Its `signal` aborts
 * when the client goes away, which is how an event stream learns to unsubscribe; the body is
 * streamed, so the adapter's size limit applies while reading.
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
  // The Host header only places the path in a URL; nothing here trusts it.
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = "half"; // required by Node's fetch for a streamed request body
  }
  return new Request(url, init);
}

/**
 * Writes a web `Response` to a Node response, with backpressure. Headers are flushed first so an
 * event stream reaches the browser before its first event; when the client goes away the body
 * is cancelled, which ends the stream's subscription.
 */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  res.on("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await writable(res);
    }
  } catch {
    // The client left or the body failed: nobody is left to tell.
  } finally {
    res.off("close", cancel);
    res.end();
  }
}

/** Resolves when `res` takes data again, or closed (so a vanished client cannot hang us). */
function writable(res: ServerResponse): Promise<void> {
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
