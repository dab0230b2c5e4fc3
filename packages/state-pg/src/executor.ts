import type { Logger } from "@baton/core";
import { StateError } from "@baton/core";
import type { Pool, PoolClient, QueryConfig } from "pg";
import { type CancellableClient, sendCancelRequest } from "./cancel-request.js";
import { breaksConnection, isClientTimeout, toBatonError } from "./pg-errors.js";

/** One row of a result, by column name. */
export type QueryResultRow = { [column: string]: any };

/** What a statement returned: its rows, and how many rows it affected. */
export interface QueryResult<R extends QueryResultRow = QueryResultRow> {
  readonly rows: R[];
  readonly rowCount: number | null;
}

/** Runs one statement on the connection a step holds. */
export type RunQuery = <R extends QueryResultRow = QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<QueryResult<R>>;

/**
 * How the backend runs its steps, whatever the client: one autocommitted statement, one
 * transaction under an advisory lock, or a sequence of statements on one held connection. Every
 * step is bounded by `timeoutMs` and fails with a Baton error naming the step.
 */
export interface Executor {
  query<R extends QueryResultRow = QueryResultRow>(
    step: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>>;
  transaction<T>(
    step: string,
    advisoryKey: string,
    work: (run: RunQuery) => Promise<T>,
  ): Promise<T>;
  /** {@link transaction} of one statement: a client that pipelines may send it all at once. */
  transactionStatement<R extends QueryResultRow = QueryResultRow>(
    step: string,
    advisoryKey: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>>;
  withClient<T>(step: string, work: (run: RunQuery) => Promise<T>): Promise<T>;
}

/**
 * Runs each step of the backend on one pooled connection within `timeoutMs`, and turns every
 * failure into a Baton error naming the step.
 *
 * The budget covers the whole step: waiting for a pooled connection, opening a new one, and
 * every statement. Three layers enforce it, because any one can be missing: the client-side
 * deadline here (always), node-postgres' `query_timeout` per statement (a silent network), and,
 * inside every transaction, the server's `statement_timeout` and
 * `idle_in_transaction_session_timeout` set with `SET LOCAL` (they also free the server).
 *
 * No session state is kept between statements — no session `SET`, no named prepared statement,
 * no `LISTEN`, no session advisory lock — so every step works the same behind a pooler in
 * transaction mode (PgBouncer), where consecutive transactions may run on different server
 * connections.
 */
export class PgExecutor implements Executor {
  constructor(
    private readonly pool: Pool,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  /** One statement, autocommitted: atomic on its own. */
  query<R extends QueryResultRow = QueryResultRow>(
    step: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>> {
    return this.withClient(step, (run) => run<R>(text, values));
  }

  /**
   * One transaction at READ COMMITTED, opened together with a transaction-level advisory lock on
   * `advisoryKey` in a single round trip. Each statement `work` runs afterwards takes a fresh
   * snapshot, so it sees everything the previous holder of that advisory lock committed. Stated
   * explicitly so a server-wide `default_transaction_isolation` cannot change the reasoning.
   * Commits when `work` resolves; rolls back when it throws.
   */
  async transaction<T>(
    step: string,
    advisoryKey: string,
    work: (run: RunQuery) => Promise<T>,
  ): Promise<T> {
    if (!/^-?\d+$/.test(advisoryKey)) throw new Error(`not an advisory key: ${advisoryKey}`);
    return this.withClient(step, async (run) => {
      await run(
        `${beginTransaction(this.timeoutMs)}; SELECT pg_advisory_xact_lock(${advisoryKey}::bigint)`,
      );
      // A failure below is rolled back by withClient, which also covers an abandoned step.
      const result = await work(run);
      await run("COMMIT");
      return result;
    });
  }

  transactionStatement<R extends QueryResultRow = QueryResultRow>(
    step: string,
    advisoryKey: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<R>> {
    return this.transaction(step, advisoryKey, (run) => run<R>(text, values));
  }

  /**
   * Checks a connection out, hands `work` a statement runner and returns the connection. Rejects
   * with `StateError` `timeout` once `timeoutMs` has passed, whatever `work` is doing; after that
   * the runner refuses to send further statements, so a late step cannot start new writes.
   */
  withClient<T>(step: string, work: (run: RunQuery) => Promise<T>): Promise<T> {
    return withDeadline(step, this.timeoutMs, (watch) => this.onClient(step, work, watch));
  }

  private config(text: string, values?: unknown[]): QueryConfig {
    const config: TimedQueryConfig = { text, values, query_timeout: this.timeoutMs };
    return config;
  }

  private async onClient<T>(
    step: string,
    work: (run: RunQuery) => Promise<T>,
    watch: DeadlineWatch,
  ): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw toBatonError(step, error);
    }
    // A checked-out client emits "error" when the server ends the connection (the active query
    // rejects as well). Without a listener that event would crash the process.
    const onError = (error: Error) => {
      this.logger.warn(`${step}: the Postgres connection failed: ${error.message}`);
    };
    client.on("error", onError);
    let broken: unknown;
    let running = false;
    // A statement the caller was told timed out must not go on running (waiting for a row lock,
    // then writing): the server is asked to cancel it while its connection is still open —
    // behind PgBouncer, closing the connection first would leave the statement running.
    const cancel = () =>
      sendCancelRequest(client as unknown as CancellableClient, this.timeoutMs).catch(() => {});
    watch.onExpired = () => {
      if (running) void cancel();
    };
    const run: RunQuery = async (text, values) => {
      if (watch.expired) {
        throw new StateError("timeout", "timeoutMs passed; the step was abandoned", { step });
      }
      running = true;
      try {
        return await client.query(this.config(text, values));
      } catch (error) {
        if (breaksConnection(error)) {
          broken = error;
          // node-postgres' own query_timeout fired: the server may still be running it.
          if (isClientTimeout(error)) await cancel();
        }
        throw error;
      } finally {
        running = false;
      }
    };
    try {
      return await work(run);
    } catch (error) {
      if (broken === undefined && client.getTransactionStatus() !== "I") {
        // Not subject to the deadline: it is cleanup, and a connection must never go back to
        // the pool inside a transaction.
        await client.query(this.config("ROLLBACK")).catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
      }
      throw toBatonError(step, error);
    } finally {
      client.off("error", onError);
      if (broken === undefined && client.getTransactionStatus() !== "I") {
        broken = new Error("the connection was left inside a transaction");
      }
      // Passing an error makes the pool destroy the connection instead of reusing it.
      client.release(broken === undefined ? undefined : toError(broken));
    }
  }
}

/**
 * `BEGIN` at READ COMMITTED with the server-side timeouts of one transaction, as one simple-query
 * text (append further statements with `;` to keep it one round trip). `SET LOCAL` ends with the
 * transaction, so nothing leaks into the next user of the server connection — which, behind
 * PgBouncer in transaction mode, may be another client. A transaction left open by a vanished
 * client is rolled back by the server after twice the budget.
 */
export function beginTransaction(timeoutMs: number): string {
  const statementMs = Math.ceil(timeoutMs);
  return (
    `BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL statement_timeout = ${statementMs}; ` +
    `SET LOCAL idle_in_transaction_session_timeout = ${statementMs * 2}`
  );
}

/**
 * Runs `task` and rejects with `StateError` `timeout` once `timeoutMs` has passed, whatever the
 * task is doing; `watch.expired` then tells the task to send nothing more, and
 * `watch.onExpired` lets it cancel what is running.
 */
export async function withDeadline<T>(
  step: string,
  timeoutMs: number,
  start: (watch: DeadlineWatch) => Promise<T>,
): Promise<T> {
  const watch: DeadlineWatch = { expired: false, onExpired: undefined };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      watch.expired = true;
      watch.onExpired?.();
      reject(
        new StateError("timeout", `no answer from Postgres within timeoutMs (${timeoutMs} ms)`, {
          step,
        }),
      );
    }, timeoutMs);
  });
  const task = start(watch);
  // When the deadline wins, the task's own later failure has been reported already.
  task.catch(() => {});
  try {
    return await Promise.race([task, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lets the deadline of one step reach the connection that step holds. */
export interface DeadlineWatch {
  expired: boolean;
  onExpired: (() => void) | undefined;
}

/**
 * node-postgres honours `query_timeout` per query (its types only declare it per pool). Set per
 * query so a pool passed in by the user is bounded too.
 */
type TimedQueryConfig = QueryConfig & { query_timeout: number };

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
