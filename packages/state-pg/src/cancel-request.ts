import net from "node:net";

/** What a connected node-postgres client knows about its backend (fields of `pg.Client`). */
export interface CancellableClient {
  readonly host?: string;
  readonly port?: number;
  readonly processID?: number | null;
  readonly secretKey?: number | null;
}

/** The protocol's CancelRequest code (1234 << 16 | 5678). */
const CANCEL_REQUEST_CODE = 80_877_102;

/**
 * Asks the server to cancel whatever statement `client` is running, with the protocol's
 * CancelRequest on a separate short-lived connection — the same thing `pg_cancel_backend` does,
 * without needing a session or a second pooled connection. PgBouncer forwards it to the server
 * connection that runs the statement, so it also works in transaction pooling mode.
 *
 * Used when the client-side deadline passes: a statement the caller was told failed must not go
 * on waiting for a row lock and write later. Best effort: resolves once the request is sent (or
 * could not be), never rejects, and gives up after `timeoutMs`.
 */
export function sendCancelRequest(client: CancellableClient, timeoutMs: number): Promise<void> {
  const { host, port, processID, secretKey } = client;
  if (typeof processID !== "number" || typeof secretKey !== "number" || !port) {
    return Promise.resolve();
  }
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket =
      host?.startsWith("/") === true
        ? net.connect(`${host}/.s.PGSQL.${port}`)
        : net.connect(port, host ?? "localhost");
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    socket.on("error", done);
    // The server closes the connection after reading the request; that is the only reply.
    socket.on("close", done);
    socket.on("connect", () => socket.end(message));
  });
}
