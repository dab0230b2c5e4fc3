import type { Claim } from "@baton/core";
import type { RedisConnection } from "./connection.js";
import type { RedisKeyLayout } from "./keys.js";
import { CLAIM, FINISH_CLAIM } from "./scripts.js";
import { assertReady, assertTtlMs, pxArgument } from "./validate.js";

/** What the claim calls need of their backend. */
export interface ClaimDeps {
  readonly connection: RedisConnection;
  readonly keys: RedisKeyLayout;
}

/**
 * One script. A claimed record expires with its claim (PEXPIREAT), a re-armed one is deleted, a
 * completed one is kept for good, so lapsed claims leave no key behind. Expiry of a live claim is
 * judged against the Redis server's clock; generations strictly increase per key.
 */
export async function claimWork(
  { connection, keys }: ClaimDeps,
  key: string,
  ttlMs: number,
): Promise<Claim | null> {
  assertReady(connection, "claim", key);
  assertTtlMs("claim", ttlMs);
  const reply = await connection.script<[number, number] | []>(
    "claim",
    CLAIM,
    [keys.claim(key)],
    [pxArgument(ttlMs)],
  );
  if (reply.length === 0) return null;
  return { key, generation: Number(reply[0]), expiresAt: Number(reply[1]) };
}

/** One script: moves a claim of the current generation to `completed` or back to armed. */
export async function finishClaim(
  { connection, keys }: ClaimDeps,
  claim: Claim,
  status: "completed" | "armed",
): Promise<boolean> {
  const step = status === "completed" ? "complete claim" : "re-arm claim";
  assertReady(connection, step, claim?.key as string);
  const reply = await connection.script<number>(
    step,
    FINISH_CLAIM,
    [keys.claim(claim.key)],
    [String(claim.generation), status],
  );
  return reply === 1;
}
