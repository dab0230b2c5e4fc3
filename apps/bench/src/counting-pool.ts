import pg from "pg";
import { OperationTally, type RoundTripCounter, type RoundTripSnapshot } from "./round-trips.js";

/**
 * A `pg.Pool` whose connections count their round trips, and the counters. Both Baton's backend
 * and upstream's accept a pool, so each runs on its default code path with only the connection
 * class swapped.
 */
export interface CountingPool {
  readonly pool: pg.Pool;
  /** One round trip per `query()` call on any connection of the pool. */
  readonly queries: RoundTripCounter;
  /**
   * The protocol-level cross-check: ReadyForQuery messages received, minus one per connection
   * opened in the window (its startup ends with one). Equal to `queries` when every query() is
   * exactly one request/response cycle.
   */
  readyForQuery(): number;
  /** Connections the pool opened in the window: each cost a TCP connect and a startup exchange. */
  connectionsOpened(): number;
}

/** Options of {@link createCountingPool}. */
export interface CountingPoolOptions {
  readonly url: string;
  /**
   * Sets the connections' `search_path`; upstream's adapter creates unqualified tables, so this
   * is how its tables land in a schema of their own.
   */
  readonly searchPath?: string;
  /** Default 10, node-postgres' default. */
  readonly max?: number;
}

/**
 * Creates a pool whose every connection reports to one set of counters.
 *
 * Why count `query()`: node-postgres (without `pipeline: true`, which neither implementation
 * sets) sends a query only after the previous one's ReadyForQuery, and sends each query as one
 * message — a simple query, even one holding several statements, or one Parse/Bind/Execute/Sync
 * batch — so one call is one round trip. `readyForQuery()` counts the same thing from the other
 * side, and the bench's tests check that the two agree.
 */
export function createCountingPool(options: CountingPoolOptions): CountingPool {
  const tally = new OperationTally();
  let readyForQuery = 0;
  let connections = 0;

  class CountingClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      connections += 1;
      // `connection` is public at run time but not in @types/pg.
      const connection = (this as unknown as { connection: NodeJS.EventEmitter }).connection;
      connection.on("readyForQuery", () => {
        readyForQuery += 1;
      });
    }

    // One override covers every overload: pg.Pool#query and the State backends call this.
    override query(...args: unknown[]): never {
      tally.add(operationOf(args[0]));
      return (super.query as (...a: unknown[]) => never)(...args);
    }
  }

  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    ...(options.searchPath === undefined
      ? {}
      : { options: `-c search_path=${options.searchPath}` }),
    Client: CountingClient as unknown as typeof pg.Client,
  });
  // An idle connection the server drops must not crash the bench.
  pool.on("error", () => {});

  let connectionsAtReset = 0;
  let readyAtReset = 0;
  const queries: RoundTripCounter = {
    reset() {
      tally.reset();
      connectionsAtReset = connections;
      readyAtReset = readyForQuery;
    },
    snapshot(): RoundTripSnapshot {
      return tally.snapshot();
    },
  };
  return {
    pool,
    queries,
    readyForQuery: () => readyForQuery - readyAtReset - (connections - connectionsAtReset),
    connectionsOpened: () => connections - connectionsAtReset,
  };
}

/** `INSERT`, `SELECT`, `BEGIN`, … : the first keyword of the statement text. */
function operationOf(query: unknown): string {
  const text =
    typeof query === "string" ? query : ((query as { text?: unknown } | null)?.text ?? "");
  const keyword = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(String(text))?.[1];
  return keyword ? keyword.toUpperCase() : "UNKNOWN";
}
