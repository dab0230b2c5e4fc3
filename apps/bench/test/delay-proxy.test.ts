import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type DelayProxy, serveDelayProxy, targetOf, throughProxy } from "../src/delay-proxy.js";

/** An echo server on an OS-chosen port. */
async function echoServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("data", (chunk) => socket.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("the bench's delay proxy", () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const one of opened.splice(0).reverse()) await one.close();
  });

  it("forwards every byte in order both ways, a round trip taking at least twice the delay", async () => {
    const echo = await echoServer();
    opened.push(echo);
    const proxy: DelayProxy = await serveDelayProxy({
      targetHost: "127.0.0.1",
      targetPort: echo.port,
      oneWayDelayMs: 20,
    });
    opened.push(proxy);
    const client = net.connect({ host: "127.0.0.1", port: proxy.port });
    await new Promise<void>((resolve) => client.once("connect", () => resolve()));
    const sent = Array.from({ length: 50 }, (_, i) => `chunk-${i};`).join("");
    const received: Buffer[] = [];
    const started = performance.now();
    const all = new Promise<number>((resolve) => {
      client.on("data", (chunk) => {
        received.push(chunk);
        if (Buffer.concat(received).length === sent.length) resolve(performance.now() - started);
      });
    });
    for (let i = 0; i < 50; i += 1) client.write(`chunk-${i};`);
    const elapsedMs = await all;
    client.destroy();
    expect(Buffer.concat(received).toString()).toBe(sent);
    // Timers never fire early: a lower bound holds on any machine, however busy.
    expect(elapsedMs).toBeGreaterThanOrEqual(40 - 1);
  });

  it("rewrites a server URL to the proxy's address, keeping credentials, path and query", () => {
    const proxy = { port: 41234, close: async () => {} };
    expect(
      throughProxy("postgres://postgres:pw@db.internal:5432/test?sslmode=disable", proxy),
    ).toBe("postgres://postgres:pw@127.0.0.1:41234/test?sslmode=disable");
    expect(throughProxy("redis://127.0.0.1:6379", proxy)).toBe("redis://127.0.0.1:41234");
    expect(targetOf("redis://cache.internal", 6379)).toEqual({
      host: "cache.internal",
      port: 6379,
    });
    expect(targetOf("postgres://x@10.0.0.5:6543/db", 5432)).toEqual({
      host: "10.0.0.5",
      port: 6543,
    });
  });
});
