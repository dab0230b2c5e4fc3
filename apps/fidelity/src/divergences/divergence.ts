/**
 * `divergent`: Baton deliberately behaves otherwise (an ADR or a row of ADR 0003 says why), so
 * the upstream test is not ported. `deferred`: the feature the test exercises does not exist in
 * Baton, so there is nothing to port it against yet. Neither counts as missing.
 */
export type DivergenceKind = "divergent" | "deferred";

/**
 * Upstream tests that are not ported, with the reason. An entry names exact titles, or every
 * test under a describe path (for a feature Baton lacks as a whole). A Baton test with the same
 * title still matches: matching wins, and the entry is then reported as stale.
 */
export interface Divergence {
  /** The upstream test file, as in the manifest. */
  readonly upstream: string;
  readonly kind: DivergenceKind;
  /** Exact upstream titles (of any describe path in the file). */
  readonly titles?: readonly string[];
  /** Every upstream test whose describe path starts with this one. */
  readonly describe?: readonly string[];
  /** Why the test is not ported, in a sentence a reviewer can check. */
  readonly reason: string;
  /** The ADR or doc that records the decision, relative to the repository root. Required for `divergent`. */
  readonly link?: string;
}

/** Builds the entries of one upstream file. */
export function divergencesOf(
  upstream: string,
  entries: readonly Omit<Divergence, "upstream">[],
): Divergence[] {
  return entries.map((entry) => ({ upstream, ...entry }));
}
