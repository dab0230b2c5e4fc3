import { afterEach, describe, expect, it } from "vitest";
import { jsonResponse, type ServedWebHandler, serveWebHandler } from "../src/index.js";

describe("serveWebHandler", () => {
  const served: ServedWebHandler[] = [];
  afterEach(async () => {
    await Promise.all(served.splice(0).map((one) => one.close()));
  });

  it("answers requests through the web handler, with the request's method, path and body", async () => {
    const one = await serveWebHandler(
      async (request) =>
        jsonResponse(201, {
          method: request.method,
          path: new URL(request.url).pathname,
          body: await request.text(),
        }),
      { port: 0 },
    );
    served.push(one);

    const response = await fetch(`${one.url}/api/x`, { method: "POST", body: "hello" });

    expect(one.port).toBeGreaterThan(0);
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ method: "POST", path: "/api/x", body: "hello" });
  });

  it("answers a throwing handler with onError's response, given the error", async () => {
    const seen: unknown[] = [];
    const one = await serveWebHandler(
      () => {
        throw new Error("boom");
      },
      {
        port: 0,
        onError: (error) => {
          seen.push(error);
          return jsonResponse(503, { ok: false });
        },
      },
    );
    served.push(one);

    const response = await fetch(one.url);

    expect(response.status).toBe(503);
    expect(seen.map((error) => (error as Error).message)).toEqual(["boom"]);
  });

  it("closes while an event stream is still open, ending it", async () => {
    const one = await serveWebHandler(
      () =>
        new Response(
          new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(": hi\n\n")) }),
          {
            headers: { "content-type": "text/event-stream" },
          },
        ),
      { port: 0 },
    );
    const response = await fetch(one.url);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(": hi\n\n");

    await one.close();

    // The stream never ends by itself: close() cut the connection under it.
    await expect(reader.read()).rejects.toThrow(/terminated/);
  });

  it("rejects when the port is taken", async () => {
    const one = await serveWebHandler(() => new Response("first"), { port: 0 });
    served.push(one);

    await expect(serveWebHandler(() => new Response("second"), { port: one.port })).rejects.toThrow(
      /EADDRINUSE/,
    );
  });
});
