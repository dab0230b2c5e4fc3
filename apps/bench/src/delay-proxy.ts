import { type ChildProcess, fork } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";

/** A TCP proxy in front of a server, holding every chunk for a fixed time in each direction. */
export interface DelayProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** Closes the proxy and its connections (idempotent). */
  close(): Promise<void>;
}

/** Where the proxy forwards to, and how long each chunk waits on each way. */
export interface DelayProxyOptions {
  readonly targetHost: string;
  readonly targetPort: number;
  readonly oneWayDelayMs: number;
}

/**
 * Listens on an OS-chosen port of 127.0.0.1 and forwards every connection to the target, each
 * chunk leaving `oneWayDelayMs` after it arrived, in arrival order (timers of one delay fire in
 * the order they were set), so a round trip through it takes at least twice the delay: a server
 * on the same host seen as if across a network link. Runs in the calling process; the bench
 * uses {@link startDelayProxyProcess} so the proxy's work stays off the measured event loop.
 */
export function serveDelayProxy(options: DelayProxyOptions): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>();
  const delayed = (from: net.Socket, to: net.Socket) => {
    from.on("data", (chunk) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, options.oneWayDelayMs);
    });
    // A close travels the link like data does, so nothing written before it is cut off.
    from.on("end", () => setTimeout(() => to.end(), options.oneWayDelayMs));
    from.on("error", () => to.destroy());
    from.on("close", () => setTimeout(() => to.destroy(), options.oneWayDelayMs));
  };
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect({ host: options.targetHost, port: options.targetPort });
    upstream.setNoDelay(true);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    delayed(client, upstream);
    delayed(upstream, client);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        reject(new Error("the delay proxy has no TCP address"));
        return;
      }
      let closed: Promise<void> | undefined;
      resolve({
        port: address.port,
        close: () => {
          closed ??= new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          });
          return closed;
        },
      });
    });
  });
}

const CHILD_FLAG = "--baton-delay-proxy";

/**
 * {@link serveDelayProxy} in a child process of its own (forked with this process' loader
 * flags), so its timers and copies run beside the bench, as a network would, not inside the
 * event loop being measured.
 */
export async function startDelayProxyProcess(options: DelayProxyOptions): Promise<DelayProxy> {
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, JSON.stringify(options)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { port: number }).port));
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the delay proxy exited with code ${code}`)));
  });
  let closed: Promise<void> | undefined;
  return {
    port,
    close: () => {
      closed ??= stopChild(child);
      return closed;
    },
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill();
  });
}

/** `url` with its host and port replaced by the proxy's (credentials, path and query kept). */
export function throughProxy(url: string, proxy: DelayProxy): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(proxy.port);
  return parsed.toString();
}

/** The target a server URL names (`redis://…`, `postgres://…`), with the protocol's default port. */
export function targetOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return {
    host: parsed.hostname || "127.0.0.1",
    port: parsed.port === "" ? defaultPort : Number(parsed.port),
  };
}

if (process.argv[2] === CHILD_FLAG && process.send) {
  const options = JSON.parse(process.argv[3] ?? "{}") as DelayProxyOptions;
  const proxy = await serveDelayProxy(options);
  process.send({ port: proxy.port });
  // The parent's exit closes the IPC channel; the proxy goes with it.
  process.on("disconnect", () => process.exit(0));
}
