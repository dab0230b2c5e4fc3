import { createHash } from "node:crypto";

/** What a per-key advisory lock serializes; each kind has its own keys. */
export type AdvisoryKind = "lock" | "claim" | "queue" | "list";

/**
 * The 64-bit advisory lock id that serializes writers of one key of one kind in one store, as a
 * decimal string (it does not fit a JS number exactly). Computed here rather than with Postgres'
 * `hashtextextended` so it can be inlined into the `BEGIN` of a transaction, saving a round trip;
 * it is made of digits and a sign only, so inlining it is safe.
 *
 * Two different keys may share an id (a 64-bit hash); they then merely take turns, which costs a
 * little latency and never correctness. The migration lock uses the two-integer form of advisory
 * locks, a key space Postgres keeps apart from this one.
 */
export function advisoryKey(
  schema: string,
  keyPrefix: string,
  kind: AdvisoryKind,
  key: string,
): string {
  // NUL separators cannot occur inside the parts (Postgres text cannot hold NUL), so distinct
  // (schema, prefix, kind, key) tuples hash distinct inputs.
  const digest = createHash("sha256").update(`${schema}\0${keyPrefix}\0${kind}\0${key}`).digest();
  return digest.readBigInt64BE(0).toString();
}
