import { randomBytes } from "node:crypto";
import net from "node:net";
import { escapeIdentifier, Pool } from "pg";

/** The test server: PostgreSQL 15 on the CI machine (see .ci/services.sh). */
export const TEST_URL =
  process.env.BATON_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** PgBouncer in transaction pooling mode in front of the test server (see .ci/services.sh). */
export const PGBOUNCER_URL =
  process.env.BATON_TEST_PGBOUNCER_URL ?? "postgres://postgres@127.0.0.1:6432/test";

/**
 * PgBouncer for postgres.js, configured as the README says for PgBouncer before 1.21 in
 * transaction mode: `prepare=false` (it keeps no prepared statements between transactions) and
 * `max_pipeline=1` (statements pipelined on one client connection hang there under load).
 */
export const PGBOUNCER_POSTGRES_JS_URL = `${PGBOUNCER_URL}?prepare=false&max_pipeline=1`;

/** The URL a backend under test opens PgBouncer with, for the client under test. */
export const PGBOUNCER_STATE_URL =
  process.env.BATON_STATE_PG_CLIENT === "postgres" ? PGBOUNCER_POSTGRES_JS_URL : PGBOUNCER_URL;

/** A schema name no other test uses. */
export function uniqueSchema(): string {
  return `baton_test_${randomBytes(6).toString("hex")}`;
}

/** A raw pool for looking behind the backend's back, and for dropping test schemas. */
export function createAdminPool(url = TEST_URL): Pool {
  const pool = new Pool({ connectionString: url, max: 16, connectionTimeoutMillis: 5_000 });
  pool.on("error", () => {});
  return pool;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(admin: Pool, schema: string): Promise<void> {
  await admin.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(schema)} CASCADE`);
}

/** Real time passing: the server judges expiry by its own clock. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How a {@link TcpProxy} treats new connections. */
export type ProxyMode = "forward" | "refuse" | "silent";

/** A local TCP proxy to the test server whose behaviour a test switches, to play an outage. */
export interface TcpProxy {
  readonly port: number;
  readonly url: string;
  /** `forward`: a working server; `refuse`: connections close at once; `silent`: accepted, never answered. */
  mode: ProxyMode;
  /** Cuts every open connection, as a network failure or server restart would. */
  dropConnections(): void;
  close(): Promise<void>;
}

/** Starts a {@link TcpProxy} in front of the server of {@link TEST_URL}. */
export async function startProxy(mode: ProxyMode): Promise<TcpProxy> {
  const target = new URL(TEST_URL);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  };
  const proxy: TcpProxy = {
    port: 0,
    url: "",
    mode,
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((client) => {
    track(client);
    if (proxy.mode === "refuse") {
      client.destroy();
      return;
    }
    if (proxy.mode === "silent") return;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(TEST_URL);
  url.port = String(port);
  return Object.assign(proxy, { port, url: url.toString() });
}
