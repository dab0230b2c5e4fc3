import type { Claim, ClaimState } from "@baton/core";
import { advisoryKey } from "./advisory-key.js";
import type { Executor } from "./executor.js";
import type { Statements } from "./sql.js";
import { assertTtlMs } from "./validate.js";

/** What the claim operations need of their backend. */
export interface ClaimDeps {
  readonly schema: string;
  readonly keyPrefix: string;
  /** The executor and statements while connected, else a `disconnected` StateError. */
  ready(step: string, ...keys: string[]): { executor: Executor; sql: Statements };
}

/** Fenced claims (DESIGN §7.3): one statement each (sql.ts). */
export function createClaimMethods(deps: ClaimDeps): ClaimState {
  /** Complete or re-arm: one UPDATE comparing the generation; a stale one changes nothing. */
  const endClaim = async (
    step: string,
    statement: "completeClaim" | "rearmClaim",
    claim: Claim,
  ): Promise<boolean> => {
    const { executor, sql } = deps.ready(step, claim?.key as string);
    if (!Number.isSafeInteger(claim.generation)) return false;
    const result = await executor.query(step, sql[statement], [
      deps.keyPrefix,
      claim.key,
      claim.generation,
    ]);
    return result.rowCount === 1;
  };
  return {
    /** Like acquireLock: one upsert, the generation drawn under a per-key advisory lock. */
    claim: async (key, ttlMs) => {
      const step = "claim";
      const { executor, sql } = deps.ready(step, key);
      assertTtlMs(step, ttlMs);
      const result = await executor.query<{ generation: string; expires_at_ms: number }>(
        step,
        sql.claim,
        [deps.keyPrefix, key, advisoryKey(deps.schema, deps.keyPrefix, "claim", key), ttlMs],
      );
      const row = result.rows[0];
      if (!row) return null;
      return { key, generation: Number(row.generation), expiresAt: row.expires_at_ms };
    },
    completeClaim: (claim) => endClaim("complete claim", "completeClaim", claim),
    rearmClaim: (claim) => endClaim("re-arm claim", "rearmClaim", claim),
  };
}
