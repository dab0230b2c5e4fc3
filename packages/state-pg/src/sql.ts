/**
 * Every statement the backend sends, for one schema. `$1` is always the key prefix and `$2` the
 * key. Time is the server's only. Single statements use `now()`, the statement's start: if one
 * waits for a row lock, the re-check after the wait sees the newest row (a new token, a deleted
 * row), so the early time can only treat a row as live a moment longer — never hand one key to
 * two holders. Statements that first wait for an advisory lock use `clock_timestamp()`, so a
 * long wait neither shortens the lease they grant nor hides an expiry that happened meanwhile.
 */

/** `ms` milliseconds (a float8 parameter) after `base`; NULL when the parameter is NULL. */
function after(base: string, ms: string): string {
  return `${base} + ${ms}::float8 * interval '1 millisecond'`;
}

/** A timestamptz as epoch milliseconds, rounded down (a lease is never reported longer). */
function epochMs(column: string): string {
  return `floor(extract(epoch FROM ${column}) * 1000)::float8`;
}

/** The statements of one schema. */
export type Statements = ReturnType<typeof createStatements>;

/** Builds the statements for `s`, a schema name already quoted as an identifier. */
export function createStatements(s: string) {
  return {
    subscribe: `INSERT INTO ${s}.subscriptions (prefix, thread_id) VALUES ($1, $2)
      ON CONFLICT DO NOTHING`,
    unsubscribe: `DELETE FROM ${s}.subscriptions WHERE prefix = $1 AND thread_id = $2`,
    isSubscribed: `SELECT EXISTS (
        SELECT 1 FROM ${s}.subscriptions WHERE prefix = $1 AND thread_id = $2
      ) AS subscribed`,

    get: `SELECT value FROM ${s}.kv
      WHERE prefix = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > now())`,
    /** $3 value, $4 ttlMs or NULL. */
    set: `INSERT INTO ${s}.kv (prefix, key, value, expires_at)
      VALUES ($1, $2, $3::text::jsonb, ${after("now()", "$4")})
      ON CONFLICT (prefix, key) DO UPDATE
        SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
    delete: `DELETE FROM ${s}.kv WHERE prefix = $1 AND key = $2`,
    /**
     * $3 value, $4 ttlMs or NULL. Takes over only an expired row; a live row fails the WHERE and
     * is left exactly as it was, TTL included. A row comes back only when this call stored.
     */
    setIfNotExists: `INSERT INTO ${s}.kv AS kv (prefix, key, value, expires_at)
      VALUES ($1, $2, $3::text::jsonb, ${after("now()", "$4")})
      ON CONFLICT (prefix, key) DO UPDATE
        SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
        WHERE kv.expires_at <= now()
      RETURNING true AS stored`,
    /**
     * $3 patch (an object), $4 ttlMs or NULL. ON CONFLICT locks the row and reads its newest
     * version, so concurrent merges queue up and none loses a key. A live value that is not an
     * object fails the WHERE: no row comes back, nothing changes, and the caller reports it.
     */
    mergeObject: `INSERT INTO ${s}.kv AS kv (prefix, key, value, expires_at)
      VALUES ($1, $2, $3::text::jsonb, ${after("now()", "$4")})
      ON CONFLICT (prefix, key) DO UPDATE
        SET value = CASE WHEN kv.expires_at <= now() THEN EXCLUDED.value
                         ELSE kv.value || EXCLUDED.value END,
            expires_at = CASE WHEN $4::float8 IS NOT NULL THEN EXCLUDED.expires_at
                              WHEN kv.expires_at <= now() THEN NULL
                              ELSE kv.expires_at END
        WHERE kv.expires_at <= now() OR jsonb_typeof(kv.value) = 'object'
      RETURNING value`,

    /**
     * $3 advisory key, $4 token, $5 ttlMs. The per-key advisory lock is taken (the MATERIALIZED
     * CTE runs first) before the fence is drawn, so acquires of one key draw their fences in the
     * order they take the lock: a fence drawn before the acquire and used after a newer holder's
     * could otherwise go backwards (ADR 0001). A live row fails the WHERE: no row comes back.
     */
    acquireLock: `WITH gate AS MATERIALIZED (SELECT pg_advisory_xact_lock($3::bigint))
      INSERT INTO ${s}.locks AS l (prefix, key, token, fence, expires_at)
      SELECT $1, $2, $4, nextval('${s}.fence_seq'), ${after("clock_timestamp()", "$5")}
      FROM gate
      ON CONFLICT (prefix, key) DO UPDATE
        SET token = EXCLUDED.token, fence = EXCLUDED.fence, expires_at = EXCLUDED.expires_at
        WHERE l.expires_at <= clock_timestamp()
      RETURNING fence, ${epochMs("expires_at")} AS expires_at_ms`,
    /** $3 token, $4 ttlMs. Only a live lock with this token moves; the fence stays. */
    extendLock: `UPDATE ${s}.locks SET expires_at = ${after("now()", "$4")}
      WHERE prefix = $1 AND key = $2 AND token = $3 AND expires_at > now()
      RETURNING true AS extended`,
    /** $3 token. */
    releaseLock: `DELETE FROM ${s}.locks
      WHERE prefix = $1 AND key = $2 AND token = $3 AND expires_at > now()
      RETURNING true AS released`,
    forceReleaseLock: `DELETE FROM ${s}.locks WHERE prefix = $1 AND key = $2`,
    inspectLock: `SELECT fence, ${epochMs("expires_at")} AS expires_at_ms FROM ${s}.locks
      WHERE prefix = $1 AND key = $2 AND expires_at > now()`,

    /**
     * Runs under the queue's advisory lock, so no other enqueue of this queue runs between the
     * count and the insert. $3 value, $4 enqueuedAt, $5 expiresAt, $6 maxSize, $7 onFull.
     * Dequeues may still run concurrently; they only shrink the queue, and a head an eviction
     * and a dequeue both target goes to exactly one of them (row locks).
     */
    enqueue: `WITH queued AS (
        SELECT id, row_number() OVER (ORDER BY id) AS position, count(*) OVER () AS depth
        FROM ${s}.queue_entries WHERE prefix = $1 AND key = $2
      ),
      before AS (SELECT COALESCE(max(depth), 0) AS depth FROM queued),
      accepted AS (
        SELECT $7::text = 'drop-oldest' OR depth < $6::bigint AS ok FROM before
      ),
      evicted AS (
        DELETE FROM ${s}.queue_entries e USING queued, before, accepted
        WHERE e.id = queued.id AND accepted.ok AND queued.position <= before.depth - $6::bigint + 1
        RETURNING e.id, e.value, e.enqueued_at_ms, e.expires_at_ms
      ),
      inserted AS (
        INSERT INTO ${s}.queue_entries (prefix, key, value, enqueued_at_ms, expires_at_ms)
        SELECT $1, $2, $3::text::jsonb, $4::float8, $5::float8 FROM accepted WHERE ok
        RETURNING id
      )
      SELECT (SELECT depth FROM before)::int AS depth_before,
        (SELECT count(*) FROM inserted)::int AS inserted,
        COALESCE((SELECT jsonb_agg(jsonb_build_object(
            'value', value, 'enqueuedAt', enqueued_at_ms, 'expiresAt', expires_at_ms)
          ORDER BY id) FROM evicted), '[]'::jsonb) AS evicted`,
    /**
     * The head, skipping heads other consumers hold locked, so concurrent dequeues never wait
     * for each other nor hand out one entry twice.
     */
    dequeue: `DELETE FROM ${s}.queue_entries
      WHERE id = (
        SELECT id FROM ${s}.queue_entries WHERE prefix = $1 AND key = $2
        ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1
      )
      RETURNING value, enqueued_at_ms, expires_at_ms`,
    queueDepth: `SELECT count(*)::int AS depth FROM ${s}.queue_entries
      WHERE prefix = $1 AND key = $2`,
    /** $2 limit. Answered from queue_entries_key_idx; no other table is read. */
    pendingQueueKeys: `SELECT DISTINCT key FROM ${s}.queue_entries WHERE prefix = $1
      LIMIT $2::bigint`,

    /**
     * Runs under the list's advisory lock, so the trim sees every earlier append. $3 value,
     * $4 ttlMs or NULL, $5 maxLength or NULL. An expired list restarts empty; without a TTL an
     * append keeps the live list's expiry. LIMIT NULL means no limit: no maxLength, no trim.
     */
    appendToList: `WITH previous AS (
        SELECT expires_at IS NULL OR expires_at > clock_timestamp() AS live
        FROM ${s}.lists WHERE prefix = $1 AND key = $2
      ),
      parent AS (
        INSERT INTO ${s}.lists AS l (prefix, key, expires_at)
        VALUES ($1, $2, ${after("clock_timestamp()", "$4")})
        ON CONFLICT (prefix, key) DO UPDATE
          SET expires_at = CASE
            WHEN $4::float8 IS NOT NULL THEN EXCLUDED.expires_at
            WHEN l.expires_at IS NULL OR l.expires_at > clock_timestamp() THEN l.expires_at
            ELSE NULL END
        RETURNING 1
      ),
      dropped AS (
        DELETE FROM ${s}.list_items i WHERE i.prefix = $1 AND i.key = $2 AND (
          NOT COALESCE((SELECT live FROM previous), false)
          OR i.id NOT IN (
            SELECT id FROM ${s}.list_items WHERE prefix = $1 AND key = $2
            ORDER BY id DESC LIMIT $5::bigint - 1
          )
        )
      )
      INSERT INTO ${s}.list_items (prefix, key, value) SELECT $1, $2, $3::text::jsonb FROM parent`,
    getList: `SELECT i.value FROM ${s}.list_items i
      JOIN ${s}.lists l ON l.prefix = i.prefix AND l.key = i.key
      WHERE i.prefix = $1 AND i.key = $2 AND (l.expires_at IS NULL OR l.expires_at > now())
      ORDER BY i.id`,

    /**
     * $3 advisory key, $4 ttlMs. Like acquireLock: the generation is drawn under the per-key
     * advisory lock. Takes an absent, armed or lapsed record; a live or completed one fails the
     * WHERE and no row comes back.
     */
    claim: `WITH gate AS MATERIALIZED (SELECT pg_advisory_xact_lock($3::bigint))
      INSERT INTO ${s}.claims AS c (prefix, key, status, generation, expires_at)
      SELECT $1, $2, 'claimed', nextval('${s}.fence_seq'), ${after("clock_timestamp()", "$4")}
      FROM gate
      ON CONFLICT (prefix, key) DO UPDATE
        SET status = 'claimed', generation = EXCLUDED.generation,
            expires_at = EXCLUDED.expires_at
        WHERE c.status = 'armed' OR (c.status = 'claimed' AND c.expires_at <= clock_timestamp())
      RETURNING generation, ${epochMs("expires_at")} AS expires_at_ms`,
    /** $3 generation. */
    completeClaim: `UPDATE ${s}.claims SET status = 'completed', expires_at = NULL
      WHERE prefix = $1 AND key = $2 AND generation = $3::bigint AND status = 'claimed'
      RETURNING true AS completed`,
    /**
     * $3 generation. An armed record behaves like an absent one, so it is marked lapsed at once
     * and the purge may delete it.
     */
    rearmClaim: `UPDATE ${s}.claims SET status = 'armed', expires_at = now()
      WHERE prefix = $1 AND key = $2 AND generation = $3::bigint AND status = 'claimed'
      RETURNING true AS rearmed`,
  };
}
