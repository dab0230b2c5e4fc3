/**
 * The statements of durable turn records (DESIGN §6.1, `TurnState` in @baton/core), one per
 * operation, for schema `s` (already quoted). `$1` is always the key prefix.
 *
 * One rule makes them safe together: every statement that writes a turn record first takes the
 * lock key's per-key advisory lock — the one `acquireLock` draws its fence under (sql.ts) — in a
 * `MATERIALIZED` CTE, and touches the record and the lock row only in CTEs that read from it. So
 * the writers of one key's record (acquire or accept with a turn, recover, take-queued, write,
 * release with a turn) run one at a time, and each sees everything its predecessor committed
 * through `turn_now()` (migration 3), a fresh-snapshot read: a plain read would use the snapshot
 * of the statement's start, taken before the wait. No lock or turn row is locked before the
 * advisory lock (the fused accept locks only its own dedupe mark first, as without a turn), so
 * these statements cannot deadlock with each other or with the ungated single-row statements
 * (extend, plain release, purge).
 *
 * Having waited for the advisory lock, they judge the lock's lease by `clock_timestamp()`, as
 * `acquireLock` does. The lock row itself is taken with `INSERT … ON CONFLICT` (which sees the
 * newest row whatever the snapshot) or checked with a row lock (`FOR KEY SHARE`, which re-reads
 * the newest version and keeps the row from being deleted until commit).
 */

/** `ms` milliseconds (a float8 parameter) after `base`. */
function after(base: string, ms: string): string {
  return `${base} + ${ms}::float8 * interval '1 millisecond'`;
}

/** A timestamptz as epoch milliseconds, rounded down (a lease is never reported longer). */
function epochMs(column: string): string {
  return `floor(extract(epoch FROM ${column}) * 1000)::float8`;
}

/** The per-key advisory lock, with a bigint `n` the fresh-snapshot calls take to order after it. */
function gate(advisoryKey: string, from = ""): string {
  return `gate AS MATERIALIZED (
        SELECT pg_advisory_xact_lock(${advisoryKey}::bigint) AS locked, 1::bigint AS n ${from}
      )`;
}

/**
 * Takes the lock (as `acquireLock`) only when the key has no turn record; `$key` the lock key,
 * `$token`, `$ttl`, then writes the record of the new fence: `$entries`, `$startedAt`, attempt 1.
 */
function acquireWithTurn(
  s: string,
  key: string,
  token: string,
  ttl: string,
  entries: string,
  startedAt: string,
): string {
  return `open AS MATERIALIZED (
        SELECT g.n FROM gate g WHERE NOT EXISTS (SELECT 1 FROM ${s}.turn_now($1, ${key}, g.n))
      ),
      taken AS (
        INSERT INTO ${s}.locks AS l (prefix, key, token, fence, expires_at)
        SELECT $1, ${key}, ${token}, nextval('${s}.fence_seq'), ${after("clock_timestamp()", ttl)}
        FROM open
        ON CONFLICT (prefix, key) DO UPDATE
          SET token = EXCLUDED.token, fence = EXCLUDED.fence, expires_at = EXCLUDED.expires_at
          WHERE l.expires_at <= clock_timestamp()
        RETURNING fence, ${epochMs("expires_at")} AS expires_at_ms
      ),
      recorded AS (
        INSERT INTO ${s}.turns (prefix, key, entries, fence, attempt, started_at_ms)
        SELECT $1, ${key}, ${entries}::text::jsonb, fence, 1, ${startedAt}::float8 FROM taken
      )`;
}

/**
 * `releaseLock` with a turn: $2 lock key, $3 token, $5 the lock's fence (NULL: matches no
 * record), $6 `end` or `hand-back`, $7 the hand-back reason. The record is ended or marked when
 * its fence is the lock's, whether or not the lease is still live; the lock row goes only when
 * the token holds it live. `outcome` reads all three, so each has run, under the gate, before
 * the statement goes on (the fused release peeks at the queue only after it).
 */
function releaseWithTurn(s: string): string {
  return `ended AS (
        DELETE FROM ${s}.turns t USING gate
        WHERE t.prefix = $1 AND t.key = $2 AND t.fence = $5::bigint AND $6::text = 'end'
        RETURNING 1
      ),
      handed AS (
        UPDATE ${s}.turns t SET handed_back = $7::text FROM gate
        WHERE t.prefix = $1 AND t.key = $2 AND t.fence = $5::bigint AND $6::text = 'hand-back'
        RETURNING 1
      ),
      released AS (
        DELETE FROM ${s}.locks l USING gate
        WHERE l.prefix = $1 AND l.key = $2 AND l.token = $3 AND l.expires_at > clock_timestamp()
        RETURNING 1
      ),
      outcome AS MATERIALIZED (
        SELECT (SELECT count(*) FROM ended) + (SELECT count(*) FROM handed) AS turned,
          (SELECT count(*) FROM released) AS n
        FROM gate
      )`;
}

/** The lock row `$2` while token `$4` holds it live, locked against deletion until commit. */
function held(s: string): string {
  return `held AS MATERIALIZED (
        SELECT l.fence FROM ${s}.locks l, gate
        WHERE l.prefix = $1 AND l.key = $2 AND l.token = $4 AND l.expires_at > clock_timestamp()
        FOR KEY SHARE OF l
      )`;
}

/** The turn statements of one schema. */
export type TurnStatements = ReturnType<typeof createTurnStatements>;

/** Builds the turn statements for `s`, a schema name already quoted as an identifier. */
export function createTurnStatements(s: string) {
  return {
    /**
     * `acquireLock` with a turn. $2 key, $3 advisory key, $4 token, $5 ttlMs, $6 entries (a JSON
     * array), $7 startedAt. A record on the key (the lock being free or expired, it is an
     * interrupted turn) leaves `open` empty: no fence drawn, nothing written, no row back.
     */
    acquireLock: `WITH ${gate("$3")},
      ${acquireWithTurn(s, "$2", "$4", "$5", "$6", "$7")}
      SELECT fence, expires_at_ms FROM taken`,

    /** `releaseLock` with a turn; see {@link releaseWithTurn}. $4 advisory key. */
    releaseLock: `WITH ${gate("$4")},
      ${releaseWithTurn(s)}
      SELECT n > 0 AS released FROM outcome`,

    /**
     * `acceptAndAcquire` with a turn: fast-paths.ts' statement with the record check and write of
     * `acquireLock` above. $2 dedupe key, $3 dedupe ttlMs, $4 lock key, $5 advisory key, $6 token,
     * $7 lock ttlMs, $8 thread id, $9 entries, $10 startedAt. A duplicate takes no advisory lock.
     */
    acceptAndAcquire: `WITH mark AS (
        INSERT INTO ${s}.kv AS kv (prefix, key, value, expires_at)
        VALUES ($1, $2, '1'::jsonb, ${after("now()", "$3")})
        ON CONFLICT (prefix, key) DO UPDATE
          SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
          WHERE kv.expires_at <= now()
        RETURNING 1
      ),
      ${gate("$5", "FROM mark")},
      ${acquireWithTurn(s, "$4", "$6", "$7", "$9", "$10")}
      SELECT EXISTS (SELECT 1 FROM mark) AS marked, t.fence, t.expires_at_ms,
        ${s}.subscribed_now($1, $8, t.fence) AS subscribed
      FROM (SELECT 1) AS one LEFT JOIN taken t ON true`,

    /**
     * `releaseAndNext` with a turn: the release above, then the queue head read with a fresh
     * snapshot after it (`queue_head_now`, migration 2), as in fast-paths.ts. Parameters as
     * `releaseLock`.
     */
    releaseAndNext: `WITH ${gate("$4")},
      ${releaseWithTurn(s)}
      SELECT o.n > 0 AS released, h.enqueued_at_ms IS NOT NULL AS found, h.value,
        h.enqueued_at_ms, h.expires_at_ms
      FROM outcome o LEFT JOIN LATERAL ${s}.queue_head_now($1, $2, o.n + o.turned) h ON true`,

    /**
     * $2 key, $3 advisory key, $4 token, $5 ttlMs, $6 startedAt. The record as it was (`prior`,
     * read fresh under the gate) makes the lock upsert run at all; a live lock fails its WHERE
     * and nothing is written. The record update is an upsert so it acts on the newest row.
     */
    recoverTurn: `WITH ${gate("$3")},
      prior AS MATERIALIZED (
        SELECT r.entries, r.fence, r.attempt, r.started_at_ms, r.handed_back
        FROM gate g, LATERAL ${s}.turn_now($1, $2, g.n) r
      ),
      taken AS (
        INSERT INTO ${s}.locks AS l (prefix, key, token, fence, expires_at)
        SELECT $1, $2, $4, nextval('${s}.fence_seq'), ${after("clock_timestamp()", "$5")}
        FROM prior
        ON CONFLICT (prefix, key) DO UPDATE
          SET token = EXCLUDED.token, fence = EXCLUDED.fence, expires_at = EXCLUDED.expires_at
          WHERE l.expires_at <= clock_timestamp()
        RETURNING fence, ${epochMs("expires_at")} AS expires_at_ms
      ),
      recovered AS (
        INSERT INTO ${s}.turns AS t
          (prefix, key, entries, fence, attempt, started_at_ms, handed_back)
        SELECT $1, $2, p.entries, k.fence, p.attempt + 1, $6::float8, NULL FROM prior p, taken k
        ON CONFLICT (prefix, key) DO UPDATE
          SET fence = EXCLUDED.fence, attempt = EXCLUDED.attempt,
            started_at_ms = EXCLUDED.started_at_ms, handed_back = NULL
      )
      SELECT k.fence, k.expires_at_ms, p.entries, p.fence AS prior_fence, p.attempt,
        p.started_at_ms, p.handed_back
      FROM taken k, prior p`,

    /**
     * $2 key, $3 advisory key, $4 token, $5 maxEntries, $6 startedAt. With the lock held, the
     * oldest entries leave the queue (skipping heads a concurrent `dequeue` holds, as it does)
     * and become the record of the lock's fence, replacing any record; `batch` is NULL when the
     * queue was empty (or the lock not held), and then nothing is written.
     */
    takeQueuedTurn: `WITH ${gate("$3")},
      ${held(s)},
      picked AS (
        SELECT e.id FROM ${s}.queue_entries e, held
        WHERE e.prefix = $1 AND e.key = $2
        ORDER BY e.id LIMIT $5::bigint
        FOR UPDATE OF e SKIP LOCKED
      ),
      taken AS (
        DELETE FROM ${s}.queue_entries e USING picked p WHERE e.id = p.id
        RETURNING e.id, e.value, e.enqueued_at_ms, e.expires_at_ms
      ),
      batch AS MATERIALIZED (
        SELECT jsonb_agg(jsonb_build_object(
            'value', value, 'enqueuedAt', enqueued_at_ms, 'expiresAt', expires_at_ms)
          ORDER BY id) AS entries
        FROM taken
      ),
      recorded AS (
        INSERT INTO ${s}.turns AS t
          (prefix, key, entries, fence, attempt, started_at_ms, handed_back)
        SELECT $1, $2, b.entries, h.fence, 1, $6::float8, NULL
        FROM batch b, held h WHERE b.entries IS NOT NULL
        ON CONFLICT (prefix, key) DO UPDATE
          SET entries = EXCLUDED.entries, fence = EXCLUDED.fence, attempt = 1,
            started_at_ms = EXCLUDED.started_at_ms, handed_back = NULL
      )
      SELECT entries FROM batch`,

    /**
     * $2 key, $3 advisory key, $4 token, $5 entries, $6 startedAt. With the lock held: a record of
     * the lock's fence keeps its attempt (and hand-back mark); any other is replaced by a new one.
     * SET reads the old row throughout, so every CASE compares the old fence.
     */
    writeTurn: `WITH ${gate("$3")},
      ${held(s)},
      written AS (
        INSERT INTO ${s}.turns AS t
          (prefix, key, entries, fence, attempt, started_at_ms, handed_back)
        SELECT $1, $2, $5::text::jsonb, h.fence, 1, $6::float8, NULL FROM held h
        ON CONFLICT (prefix, key) DO UPDATE
          SET entries = EXCLUDED.entries, started_at_ms = EXCLUDED.started_at_ms,
            fence = EXCLUDED.fence,
            attempt = CASE WHEN t.fence = EXCLUDED.fence THEN t.attempt ELSE 1 END,
            handed_back = CASE WHEN t.fence = EXCLUDED.fence THEN t.handed_back END
        RETURNING 1
      )
      SELECT EXISTS (SELECT 1 FROM written) AS written`,

    /** $2 key. */
    inspectTurn: `SELECT entries, fence, attempt, started_at_ms, handed_back FROM ${s}.turns
      WHERE prefix = $1 AND key = $2`,

    /**
     * $2 limit. Records whose lock row is missing or expired: the turns table's primary key,
     * each record joined to its lock by the locks table's primary key; no other table is read.
     */
    pendingTurnKeys: `SELECT t.key FROM ${s}.turns t
      LEFT JOIN ${s}.locks l ON l.prefix = t.prefix AND l.key = t.key
      WHERE t.prefix = $1 AND (l.key IS NULL OR l.expires_at <= now())
      LIMIT $2::bigint`,
  };
}
