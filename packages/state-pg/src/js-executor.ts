import { StateError } from "@baton/core";
import type { ReservedSql, Sql } from "postgres";
import {
  beginTransaction,
  type DeadlineWatch,
  type Executor,
  type QueryResult,
  type QueryResultRow,
  type RunQuery,
  withDeadline,
} from "./executor.js";
import { toBatonError } from "./pg-errors.js";

const TEXT_OID = 25;
const FLOAT8_OID = 701;
const BOOL_OID = 16;

/** A postgres.js instance of any type map: the backend only sends text and plain values. */
export type AnySql = Sql<any>;

/**
 * The {@link Executor} on postgres.js (`postgres`): each step within `timeoutMs`, every failure
 * a Baton error naming the step.
 *
 * A single statement goes to the pool as it is: postgres.js pipelines it on a busy connection
 * and, unless the instance says `prepare: false`, runs it as a named prepared statement (the
 * statement texts are fixed per schema, so there is one per operation). A step of several
 * statements reserves one connection and sends them there in order. When the deadline passes,
 * whatever is running or waiting for a connection is cancelled (postgres.js sends the
 * protocol's CancelRequest, which PgBouncer forwards), and no further statement is sent.
 *
 * As with node-postgres, no session state survives a step — no session `SET`, no `LISTEN`, no
 * session advisory lock — so every step works behind a pooler in transaction mode; there the
 * instance needs `prepare: false` (see the README).
 */
export class PostgresJsExecutor implements Executor {
  private readonly prepare: boolean;

  constructor(
    private readonly sql: AnySql,
    private readonly timeoutMs: number,
  ) {
    this.prepare = (sql.options as { prepare?: unknown }).prepare !== false;
  }

  query<R extends QueryResultRow = QueryResultRow>(
    step: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>> {
    return withDeadline(step, this.timeoutMs, async (watch) => {
      const abort = new AbortController();
      watch.onExpired = () => abort.abort();
      try {
        return toResult<R>(
          await this.sql
            .unsafe(text, values as never[], this.unsafeOptions(values))
            .signal(abort.signal),
        );
      } catch (error) {
        throw toBatonError(step, error);
      }
    });
  }

  /**
   * One transaction at READ COMMITTED under a transaction-level advisory lock on `advisoryKey`,
   * as the node-postgres executor runs it. The `BEGIN` (with its `SET LOCAL` timeouts and the
   * advisory lock) is pipelined with the first statement of `work`: they go out together on the
   * reserved connection, which runs them in order, so the statement still runs inside the
   * transaction and after the lock. If the `BEGIN` fails, its error is the step's.
   */
  transaction<T>(
    step: string,
    advisoryKey: string,
    work: (run: RunQuery) => Promise<T>,
  ): Promise<T> {
    if (!/^-?\d+$/.test(advisoryKey)) throw new Error(`not an advisory key: ${advisoryKey}`);
    return this.withClient(step, async (run) => {
      const begun = run(
        `${beginTransaction(this.timeoutMs)}; SELECT pg_advisory_xact_lock(${advisoryKey}::bigint)`,
      );
      const [, result] = await Promise.all([begun, work(run)]);
      await run("COMMIT");
      return result;
    });
  }

  /**
   * One statement in a transaction, pipelined whole: `BEGIN` (with the advisory lock), the
   * statement and `COMMIT` go out together, one round trip. Safe because nothing is decided
   * between them: if the `BEGIN` fails the statement fails inside the aborted transaction, and
   * if the statement fails the server answers the `COMMIT` with a rollback; either way the step
   * rejects with the first error and nothing is committed.
   */
  transactionStatement<R extends QueryResultRow = QueryResultRow>(
    step: string,
    advisoryKey: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>> {
    if (!/^-?\d+$/.test(advisoryKey)) throw new Error(`not an advisory key: ${advisoryKey}`);
    return this.withClient(step, async (run) => {
      const [, result] = await Promise.all([
        run(
          `${beginTransaction(this.timeoutMs)}; SELECT pg_advisory_xact_lock(${advisoryKey}::bigint)`,
        ),
        run<R>(text, values),
        run("COMMIT"),
      ]);
      return result;
    });
  }

  withClient<T>(step: string, work: (run: RunQuery) => Promise<T>): Promise<T> {
    return withDeadline(step, this.timeoutMs, (watch) => this.onReserved(step, work, watch));
  }

  /**
   * Each value with the type it is sent as, so postgres.js never has to ask the server first (a
   * Describe round trip before every statement when `prepare: false`): strings as `text`,
   * numbers as `float8`, booleans as `bool`; `null` stays untyped, which the server resolves.
   * Every statement casts its parameters where a column needs another type (`$3::text::jsonb`,
   * `$5::bigint`), so these are the types node-postgres' text values arrived as too.
   */
  private typed(values: unknown[]): never[] {
    return values.map((value) => {
      if (typeof value === "string") return this.sql.typed(value, TEXT_OID);
      if (typeof value === "number") return this.sql.typed(value, FLOAT8_OID);
      if (typeof value === "boolean") return this.sql.typed(value, BOOL_OID);
      return value;
    }) as never[];
  }

  private unsafeOptions(values: unknown[] | undefined) {
    // Without values a text may hold several statements (migrations, BEGIN …): the simple protocol.
    return values === undefined || values.length === 0
      ? { simple: true }
      : { prepare: this.prepare };
  }

  private async onReserved<T>(
    step: string,
    work: (run: RunQuery) => Promise<T>,
    watch: DeadlineWatch,
  ): Promise<T> {
    const abort = new AbortController();
    watch.onExpired = () => abort.abort();
    let reserved: ReservedSql;
    try {
      reserved = (await this.sql.reserve().signal(abort.signal)) as ReservedSql;
    } catch (error) {
      throw toBatonError(step, error);
    }
    // A transaction this step began and has not ended: rolled back on failure.
    let open = false;
    const run: RunQuery = async (text, values) => {
      if (watch.expired) {
        throw new StateError("timeout", "timeoutMs passed; the step was abandoned", { step });
      }
      if (/^\s*BEGIN\b/i.test(text)) open = true;
      const pending = reserved
        .unsafe(text, this.typed(values ?? []), this.unsafeOptions(values))
        .signal(abort.signal);
      const result = await pending;
      if (/^\s*(COMMIT|ROLLBACK)\b/i.test(text)) open = false;
      return toResult(result);
    };
    try {
      return await work(run);
    } catch (error) {
      if (open) {
        // Not subject to the deadline: it is cleanup. A connection released inside a
        // transaction is closed by postgres.js, which ends the transaction too.
        await reserved.unsafe("ROLLBACK", [], { simple: true }).catch(() => {});
      }
      throw toBatonError(step, error);
    } finally {
      reserved.release();
    }
  }
}

function toResult<R extends QueryResultRow>(result: unknown): QueryResult<R> {
  const rows = result as R[] & { count?: number | null };
  return { rows: Array.from(rows), rowCount: typeof rows.count === "number" ? rows.count : null };
}
