import net from "node:net";

/**
 * A TCP proxy between one worker and its State server (the same idea as state-redis's test
 * proxy): `stall()` holds every byte in both directions until `resume()` — to that worker the
 * server stopped answering, while every other worker still reaches it — and no byte is lost, so
 * connections stay in sync afterwards. Works for Redis and Postgres alike.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private held: Array<() => void> = [];
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on a free port of 127.0.0.1 and forwards to the target. */
  async start(): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  /** Stops listening and resets every open connection. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.held = [];
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Holds all traffic, on open and new connections, from now on. */
  stall(): void {
    this.stalled = true;
  }

  /** Delivers the held traffic in order and forwards again. */
  resume(): void {
    this.stalled = false;
    const held = this.held;
    this.held = [];
    for (const deliver of held) deliver();
  }

  /** `url` with its host and port replaced by this proxy's. */
  proxied(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = "127.0.0.1";
    parsed.port = String(this.port);
    return parsed.toString();
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk) => this.forward(upstream, chunk));
    upstream.on("data", (chunk) => this.forward(client, chunk));
  }

  private forward(to: net.Socket, chunk: Buffer): void {
    const deliver = () => {
      if (!to.destroyed) to.write(chunk);
    };
    if (this.stalled || this.held.length > 0) this.held.push(deliver);
    else deliver();
  }
}
