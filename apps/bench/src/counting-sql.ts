import net from "node:net";
import postgres from "postgres";
import { OperationTally, type RoundTripCounter, type RoundTripSnapshot } from "./round-trips.js";

/**
 * A postgres.js instance whose connections count what they send, read off the wire: each
 * connection is a plain TCP socket handed to postgres.js through its `socket` option, and the
 * bench parses the protocol messages written to it and read from it. Nothing in postgres.js is
 * patched, so the backend runs on its default code path.
 */
export interface CountingSql {
  readonly sql: postgres.Sql;
  /**
   * One per statement cycle sent: a simple Query (`Q`, which may hold several statements, as
   * node-postgres' one `query()` does), or a Sync (`S`) ending an extended-protocol statement
   * (Parse/Bind/Execute). Named by the first SQL keyword of the statement. Comparable with the
   * node-postgres counter's `query()` calls.
   */
  readonly queries: RoundTripCounter;
  /** ReadyForQuery messages received, minus one per connection opened (its startup). */
  readyForQuery(): number;
  /**
   * Round trips in the protocol sense: how often a connection sent something after having
   * received since its last send. Statements pipelined without waiting for each other's answers
   * share one; startup is not counted.
   */
  flushes(): number;
  connectionsOpened(): number;
}

export interface CountingSqlOptions {
  readonly url: string;
  /** Default 10, postgres.js' default. */
  readonly max?: number;
}

export function createCountingSql(options: CountingSqlOptions): CountingSql {
  const tally = new OperationTally();
  let ready = 0;
  let flushes = 0;
  let connections = 0;

  const sql = postgres(options.url, {
    max: options.max ?? 10,
    fetch_types: false,
    onnotice: () => {},
    // A net.Socket is what postgres.js itself connects with; its declared SocketLike is narrower.
    socket: ((_options: unknown, host: string, port: number) =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect(Number(port), String(host));
        socket.once("error", reject);
        socket.once("connect", () => {
          socket.off("error", reject);
          connections += 1;
          resolve(watch(socket));
        });
      })) as unknown as postgres.Options<{}>["socket"],
  });

  function watch(socket: net.Socket): net.Socket {
    const out = new FrontendReader((type, body) => {
      if (type === "Q") tally.add(keywordOf(cString(body, 0)));
      else if (type === "P") {
        const name = cString(body, 0);
        const text = cString(body, Buffer.byteLength(name) + 1);
        statements.set(name, keywordOf(text));
        current = statements.get(name) ?? "UNKNOWN";
      } else if (type === "B") {
        const portal = cString(body, 0);
        current = statements.get(cString(body, Buffer.byteLength(portal) + 1)) ?? current;
      } else if (type === "S") tally.add(current);
    });
    const statements = new Map<string, string>();
    let current = "UNKNOWN";
    let received = true;
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (received) {
        flushes += 1;
        received = false;
      }
      if (chunk instanceof Uint8Array) {
        // Copied: postgres.js may reuse its write buffer once the socket has taken it.
        out.push(Buffer.from(chunk));
      }
      return write(chunk, ...rest);
    }) as typeof socket.write;
    const backend = new BackendReader((type) => {
      if (type === "Z") ready += 1;
    });
    socket.on("data", (data: Buffer) => {
      received = true;
      backend.push(data);
    });
    return socket;
  }

  let connectionsAtReset = 0;
  let readyAtReset = 0;
  let flushesAtReset = 0;
  const queries: RoundTripCounter = {
    reset() {
      tally.reset();
      connectionsAtReset = connections;
      readyAtReset = ready;
      flushesAtReset = flushes;
    },
    snapshot(): RoundTripSnapshot {
      return tally.snapshot();
    },
  };
  return {
    sql,
    queries,
    readyForQuery: () => ready - readyAtReset - (connections - connectionsAtReset),
    flushes: () => flushes - flushesAtReset - (connections - connectionsAtReset),
    connectionsOpened: () => connections - connectionsAtReset,
  };
}

/** Frames the client's messages; the first message of a connection (startup) has no type. */
class FrontendReader {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  constructor(private readonly onMessage: (type: string, body: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 4) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        this.buffer = this.buffer.subarray(length);
        this.started = true;
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < length + 1) return;
      this.onMessage(String.fromCharCode(this.buffer[0] ?? 0), this.buffer.subarray(5, length + 1));
      this.buffer = this.buffer.subarray(length + 1);
    }
  }
}

/** Frames the server's messages (each has a type byte and a length). */
class BackendReader {
  private buffer: Buffer = Buffer.alloc(0);
  constructor(private readonly onMessage: (type: string) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < length + 1) return;
      this.onMessage(String.fromCharCode(this.buffer[0] ?? 0));
      this.buffer = this.buffer.subarray(length + 1);
    }
  }
}

function cString(buffer: Buffer, offset: number): string {
  const end = buffer.indexOf(0, offset);
  return buffer.toString("utf8", offset, end < 0 ? buffer.length : end);
}

/** `INSERT`, `SELECT`, `BEGIN`, … : the first keyword of the statement text. */
function keywordOf(text: string): string {
  const keyword = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(text)?.[1];
  return keyword ? keyword.toUpperCase() : "UNKNOWN";
}
