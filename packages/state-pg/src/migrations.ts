import type { Logger } from "@baton/core";
import { beginTransaction, type RunQuery } from "./executor.js";

/** One step of the schema's history. Versions are applied in order, each exactly once. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** The DDL for `schema` (already a quoted identifier). */
  sql(schema: string): string;
}

/**
 * The schema's history. Append new versions; never edit an applied one: databases in the field
 * have run it already, and `schema_migrations` records only its number.
 *
 * The statements deliberately lack `IF NOT EXISTS`: running a version twice must fail loudly,
 * which is how the tests prove the migration lock works.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "create state tables and the fence sequence",
    sql: (s) => `
      -- One sequence per schema for lock fences and claim generations. It is never reset, and
      -- CACHE 1 (the default, stated for the reader) keeps values increasing across sessions:
      -- a per-session cache would hand out numbers out of order.
      CREATE SEQUENCE ${s}.fence_seq AS bigint MINVALUE 1 NO CYCLE CACHE 1;

      CREATE TABLE ${s}.subscriptions (
        prefix        text        NOT NULL,
        thread_id     text        NOT NULL,
        subscribed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (prefix, thread_id)
      );

      CREATE TABLE ${s}.kv (
        prefix     text  NOT NULL,
        key        text  NOT NULL,
        value      jsonb NOT NULL,
        expires_at timestamptz,
        PRIMARY KEY (prefix, key)
      );
      CREATE INDEX kv_expires_at_idx ON ${s}.kv (expires_at) WHERE expires_at IS NOT NULL;

      CREATE TABLE ${s}.locks (
        prefix     text        NOT NULL,
        key        text        NOT NULL,
        token      text        NOT NULL,
        fence      bigint      NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (prefix, key)
      );
      CREATE INDEX locks_expires_at_idx ON ${s}.locks (expires_at);

      -- Entries of every queue; the bigserial id is the FIFO order (enqueues of one queue are
      -- serialized, so ids follow enqueue order). The entry's own times are the caller's data,
      -- never judged here.
      CREATE TABLE ${s}.queue_entries (
        id             bigserial PRIMARY KEY,
        prefix         text      NOT NULL,
        key            text      NOT NULL,
        value          jsonb     NOT NULL,
        enqueued_at_ms float8    NOT NULL,
        expires_at_ms  float8    NOT NULL
      );
      -- Serves dequeue (head of one queue), queueDepth and pendingQueueKeys (DISTINCT key).
      CREATE INDEX queue_entries_key_idx ON ${s}.queue_entries (prefix, key, id);

      -- A list is a parent row holding the TTL, so an append refreshes one row, not every item.
      CREATE TABLE ${s}.lists (
        prefix     text NOT NULL,
        key        text NOT NULL,
        expires_at timestamptz,
        PRIMARY KEY (prefix, key)
      );
      CREATE INDEX lists_expires_at_idx ON ${s}.lists (expires_at) WHERE expires_at IS NOT NULL;

      CREATE TABLE ${s}.list_items (
        id     bigserial PRIMARY KEY,
        prefix text      NOT NULL,
        key    text      NOT NULL,
        value  jsonb     NOT NULL,
        FOREIGN KEY (prefix, key) REFERENCES ${s}.lists (prefix, key) ON DELETE CASCADE
      );
      CREATE INDEX list_items_key_idx ON ${s}.list_items (prefix, key, id);

      CREATE TABLE ${s}.claims (
        prefix     text   NOT NULL,
        key        text   NOT NULL,
        status     text   NOT NULL CHECK (status IN ('claimed', 'armed', 'completed')),
        generation bigint NOT NULL,
        -- When the claim lapses (an armed record has lapsed); NULL once completed, so a completed
        -- record is never purged and never claimed again.
        expires_at timestamptz,
        PRIMARY KEY (prefix, key)
      );
      CREATE INDEX claims_expires_at_idx ON ${s}.claims (expires_at) WHERE expires_at IS NOT NULL;
    `,
  },
  {
    version: 2,
    name: "fresh-snapshot reads for the fused fast paths",
    // One statement has one snapshot, taken when it starts; a commit that lands while it waits
    // for a row or advisory lock stays invisible to its plain reads. A VOLATILE PL/pgSQL function
    // takes a fresh snapshot for each query it runs (READ COMMITTED), so called after the
    // statement's write — its last argument is that write's outcome, which orders the call —
    // it sees everything committed up to then. The fast paths need exactly that (fast-paths.ts).
    sql: (s) => `
      CREATE FUNCTION ${s}.queue_head_now(p_prefix text, p_key text, p_after bigint)
        RETURNS TABLE (value jsonb, enqueued_at_ms float8, expires_at_ms float8)
        LANGUAGE plpgsql VOLATILE AS $fn$
      BEGIN
        RETURN QUERY SELECT e.value, e.enqueued_at_ms, e.expires_at_ms
          FROM ${s}.queue_entries e WHERE e.prefix = p_prefix AND e.key = p_key
          ORDER BY e.id LIMIT 1;
      END
      $fn$;

      -- STRICT: with no lock taken (p_after NULL) it is not run at all.
      CREATE FUNCTION ${s}.subscribed_now(p_prefix text, p_thread_id text, p_after bigint)
        RETURNS boolean LANGUAGE plpgsql VOLATILE STRICT AS $fn$
      DECLARE
        found_one boolean;
      BEGIN
        SELECT EXISTS (
          SELECT 1 FROM ${s}.subscriptions t WHERE t.prefix = p_prefix AND t.thread_id = p_thread_id
        ) INTO found_one;
        RETURN found_one;
      END
      $fn$;
    `,
  },
  {
    version: 3,
    name: "turn records (durable turns)",
    // A turn record (DESIGN §6.1) sits next to its lock, under the same key, from the statement
    // that gives a run its lock until the one that releases it after the turn ended. It has no
    // expiry of its own, so the purge never touches this table. Every statement that writes it
    // holds the key's per-key advisory lock (turn-sql.ts), so writers of one key never race.
    sql: (s) => `
      CREATE TABLE ${s}.turns (
        prefix        text    NOT NULL,
        key           text    NOT NULL,
        -- The turn's messages as queue entries ({ value, enqueuedAt, expiresAt }), oldest first.
        entries       jsonb   NOT NULL CHECK (jsonb_typeof(entries) = 'array'),
        -- The fence of the lock the current attempt runs under.
        fence         bigint  NOT NULL,
        attempt       integer NOT NULL CHECK (attempt >= 1),
        -- Epoch milliseconds by the runtime's clock (the caller's data, never judged here).
        started_at_ms float8  NOT NULL,
        -- Why the holder handed the turn back; NULL when it did not (or the lease just ran out).
        handed_back   text    CHECK (handed_back IN ('shutdown', 'lease-lost')),
        PRIMARY KEY (prefix, key)
      );

      -- The record of one key read with a fresh snapshot, like the functions of migration 2: the
      -- statements that call it have waited for the key's advisory lock, and must see every
      -- record the previous holder of that lock committed. p_after orders the call after the wait.
      CREATE FUNCTION ${s}.turn_now(p_prefix text, p_key text, p_after bigint)
        RETURNS TABLE (entries jsonb, fence bigint, attempt integer, started_at_ms float8,
          handed_back text)
        LANGUAGE plpgsql VOLATILE STRICT AS $fn$
      BEGIN
        RETURN QUERY SELECT t.entries, t.fence, t.attempt, t.started_at_ms, t.handed_back
          FROM ${s}.turns t WHERE t.prefix = p_prefix AND t.key = p_key;
      END
      $fn$;
    `,
  },
];

/** The newest version this release knows. */
export const LATEST_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/**
 * The two-integer advisory lock id of the migration lock. The two-integer key space is separate
 * from the 64-bit one the per-key locks use, so the two never collide. The schema goes into the
 * second half, so stores in different schemas migrate independently.
 */
const MIGRATION_LOCK_CLASS = 0x6261_746f; // "bato"

/**
 * Brings `schema` up to the newest version in one transaction under a transaction-level advisory
 * lock, so any number of instances starting at once against a new database never race: the
 * first migrates, the others wait for it and then find nothing left to do. Creates the schema
 * when it is missing. Returns the versions applied by this call (empty when up to date).
 */
export async function runMigrations(
  run: RunQuery,
  schemaName: string,
  quotedSchema: string,
  logger: Logger,
  timeoutMs: number,
): Promise<number[]> {
  // A failure rolls the whole transaction back (the executor does it): no half-applied version.
  // The lock is transaction-level, never a session lock, so it works behind PgBouncer in
  // transaction mode and cannot outlive the migration on a pooled server connection.
  await run(beginTransaction(timeoutMs));
  await run("SELECT pg_advisory_xact_lock($1::int, hashtext($2))", [
    MIGRATION_LOCK_CLASS,
    schemaName,
  ]);
  await run(`CREATE SCHEMA IF NOT EXISTS ${quotedSchema}`);
  await run(`
    CREATE TABLE IF NOT EXISTS ${quotedSchema}.schema_migrations (
      version    integer     PRIMARY KEY,
      name       text        NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const done = await run(`SELECT version FROM ${quotedSchema}.schema_migrations`);
  const doneVersions = new Set(done.rows.map((row) => Number(row.version)));
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    if (doneVersions.has(migration.version)) continue;
    await run(migration.sql(quotedSchema));
    await run(`INSERT INTO ${quotedSchema}.schema_migrations (version, name) VALUES ($1, $2)`, [
      migration.version,
      migration.name,
    ]);
    applied.push(migration.version);
  }
  await run("COMMIT");

  for (const version of applied) {
    logger.info(`migrated schema ${schemaName} to version ${version}`);
  }
  const newest = Math.max(0, ...doneVersions);
  if (newest > LATEST_SCHEMA_VERSION) {
    // A newer release migrated this schema (a rolling deploy). Migrations only add, so this
    // release keeps working; say so rather than refuse to start.
    logger.warn(
      `schema ${schemaName} is at version ${newest}, newer than this release knows (${LATEST_SCHEMA_VERSION}); continuing`,
    );
  }
  return applied;
}
