import { escapeIdentifier, Pool } from "pg";
import postgres from "postgres";
import { type Executor, PgExecutor } from "./executor.js";
import { type AnySql, PostgresJsExecutor } from "./js-executor.js";
import { runMigrations } from "./migrations.js";
import type { ResolvedPostgresStateOptions } from "./options.js";
import { type PurgeResult, purgeExpiredRows, purgeStatement } from "./purge.js";
import { createStatements, type Statements } from "./sql.js";

/** What an operation needs while the backend is connected. */
export interface OpenConnection {
  readonly executor: Executor;
  readonly sql: Statements;
}

interface Session extends OpenConnection {
  /** Ends what the backend opened; does nothing for a pool or instance the user passed. */
  readonly end: (failed?: boolean) => Promise<void>;
  readonly purgeTimer: NodeJS.Timeout | undefined;
}

/** A client opened for one session: its executor, and how to let go of it. */
interface Opened {
  readonly executor: Executor;
  /** `failed`: after a failed connect, drop at once whatever is still trying to connect. */
  readonly end: (failed?: boolean) => Promise<void>;
}

/**
 * The lifecycle of one backend: pool, migration, purge timer. `connect()` is idempotent and
 * shares one attempt between concurrent callers; a failed attempt leaves nothing behind, so the
 * next `connect()` starts afresh. `disconnect()` ends only a pool it created.
 */
export class PostgresConnection {
  private readonly quotedSchema: string;
  private readonly sql: Statements;
  private readonly purgeSql: string;
  private session: Session | undefined;
  private connecting: Promise<void> | undefined;
  private disconnecting: Promise<void> | undefined;
  private purging: Promise<unknown> | undefined;

  constructor(private readonly options: ResolvedPostgresStateOptions) {
    this.quotedSchema = escapeIdentifier(options.schema);
    this.sql = createStatements(this.quotedSchema);
    this.purgeSql = purgeStatement(this.quotedSchema);
  }

  /** The open session, or `undefined` before `connect()` and after `disconnect()`. */
  current(): OpenConnection | undefined {
    return this.session;
  }

  connect(): Promise<void> {
    if (this.session) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  disconnect(): Promise<void> {
    this.disconnecting ??= this.close().finally(() => {
      this.disconnecting = undefined;
    });
    return this.disconnecting;
  }

  /** Deletes expired rows now; see `PostgresState.purgeExpired`. */
  async purgeExpired(): Promise<PurgeResult> {
    const session = this.session;
    if (!session) return { values: 0, locks: 0, lists: 0, claims: 0 };
    return purgeExpiredRows(session.executor, this.purgeSql);
  }

  private async open(): Promise<void> {
    // A disconnect still ending the previous pool finishes first, so pools never overlap.
    await this.disconnecting;
    const { options } = this;
    const { executor, end } = options.client === "postgres" ? this.openPostgresJs() : this.openPg();
    try {
      await executor.withClient("connect", (run) =>
        runMigrations(run, options.schema, this.quotedSchema, options.logger, options.timeoutMs),
      );
    } catch (error) {
      await end(true);
      throw error;
    }
    this.session = { executor, sql: this.sql, end, purgeTimer: this.startPurgeTimer() };
  }

  private openPg(): Opened {
    const { options } = this;
    const owned = options.pool === undefined;
    const pool = options.pool ?? this.createPool(options.url as string);
    pool.on("error", this.onIdleError);
    return {
      executor: new PgExecutor(pool, options.timeoutMs, options.logger),
      end: async () => {
        pool.off("error", this.onIdleError);
        // pool.end() waits for checked-out connections to come back, so in-flight calls complete.
        if (owned) await pool.end().catch(() => {});
      },
    };
  }

  private openPostgresJs(): Opened {
    const { options } = this;
    const owned = options.sql === undefined;
    const sql = options.sql ?? this.createSql(options.url as string);
    return {
      executor: new PostgresJsExecutor(sql, options.timeoutMs),
      // sql.end() lets running queries finish and rejects new ones; after a failed connect
      // nothing is running, and a connection attempt still waiting is dropped at once.
      end: async (failed) => {
        if (owned) await sql.end(failed ? { timeout: 0 } : undefined).catch(() => {});
      },
    };
  }

  private createSql(url: string): AnySql {
    const { logger, timeoutMs } = this.options;
    return postgres(url, {
      // Seconds. Opening a connection is bounded like everything else; query_timeout is only a
      // backstop for a silent network (the executor's own deadline, timeoutMs, comes first).
      connect_timeout: timeoutMs / 1_000,
      query_timeout: (2 * timeoutMs) / 1_000,
      // Detects a silently dropped TCP connection instead of waiting on it forever.
      keep_alive: 60,
      // Only application_name at startup, which PgBouncer accepts; no statement_timeout.
      connection: { application_name: "baton-state-pg" },
      // The backend sends and reads only built-in types: no catalog query on a new connection.
      fetch_types: false,
      onnotice: (notice) => logger.debug(`Postgres notice: ${notice.message}`),
    });
  }

  private async close(): Promise<void> {
    // A connect in progress completes (or fails) first; its session is then closed here.
    await this.connecting?.catch(() => {});
    const session = this.session;
    if (!session) return;
    // From here on every call rejects with "disconnected"; calls already running finish.
    this.session = undefined;
    if (session.purgeTimer) clearInterval(session.purgeTimer);
    await this.purging;
    await session.end();
  }

  private createPool(url: string): Pool {
    const timeoutMs = Math.ceil(this.options.timeoutMs);
    return new Pool({
      connectionString: url,
      // Opening a connection, and waiting for a free one, are bounded like everything else.
      connectionTimeoutMillis: timeoutMs,
      // No session settings at connect (no statement_timeout startup parameter): a pooler in
      // transaction mode (PgBouncer, managed Postgres) refuses them, and would not keep them on
      // the server connection anyway. The executor sets its server-side timeouts per
      // transaction with SET LOCAL instead.
      // Detects a silently dropped TCP connection instead of waiting on it forever.
      keepAlive: true,
      application_name: "baton-state-pg",
    });
  }

  private startPurgeTimer(): NodeJS.Timeout | undefined {
    if (this.options.purgeIntervalMs === 0) return undefined;
    const timer = setInterval(() => this.purgeInBackground(), this.options.purgeIntervalMs);
    // The timer alone never keeps the process alive.
    timer.unref();
    return timer;
  }

  private purgeInBackground(): void {
    if (this.purging) return;
    const { logger } = this.options;
    this.purging = this.purgeExpired()
      .then((purged) => {
        const total = purged.values + purged.locks + purged.lists + purged.claims;
        if (total > 0) logger.debug(`purged ${total} expired rows`, purged);
      })
      .catch((error: unknown) => {
        // A failed purge changes nothing visible; the next tick tries again.
        logger.warn(`purging expired rows failed: ${(error as Error)?.message ?? error}`);
      })
      .finally(() => {
        this.purging = undefined;
      });
  }

  /**
   * An idle pooled connection failed (the server restarted, or terminated it). The pool drops it
   * and opens a new one on demand; without this listener the event would crash the process.
   */
  private readonly onIdleError = (error: Error): void => {
    this.options.logger.warn(
      `an idle Postgres connection failed and was dropped from the pool: ${error.message}`,
    );
  };
}
