import type { Divergence } from "./divergences/divergence.js";
import type { TestTitle } from "./test-title.js";
import { hasModifier } from "./test-title.js";
import { hasPlaceholders, placeholderPattern } from "./vitest-title-format.js";

/** A Baton test and the file it is in. */
export interface BatonTest extends TestTitle {
  readonly file: string;
}

/** What became of one upstream test. */
export type TitleStatus = "matched" | "divergent" | "deferred" | "missing";

/** The outcome for one upstream test. */
export interface TitleResult {
  readonly test: TestTitle;
  readonly status: TitleStatus;
  /** Matched: the Baton test also has upstream's describe path. */
  readonly exactPath?: boolean;
  /** Matched: the Baton file of the matching test. */
  readonly batonFile?: string;
  /** Divergent or deferred: why, and where it is recorded. */
  readonly reason?: string;
  readonly link?: string;
  /** Missing: a hint, e.g. that a Baton test with the title exists outside the mapping. */
  readonly note?: string;
}

/** Counts of one file pair or of all of them. */
export interface Counts {
  readonly total: number;
  readonly matched: number;
  /** Matched with upstream's describe path too. */
  readonly exact: number;
  readonly divergent: number;
  readonly deferred: number;
  readonly missing: number;
}

/** Titles with a Baton test elsewhere: those outside the mapping, or skipped ones. */
export interface MatchHints {
  /** Active Baton tests of every file, mapped or not, by title. */
  readonly anywhere?: ReadonlyMap<string, readonly BatonTest[]>;
}

/** The result of {@link matchTitles}. */
export interface MatchResult {
  readonly results: TitleResult[];
  readonly counts: Counts;
  /** Divergence titles whose upstream tests are all matched now: the entry can go. */
  readonly stale: string[];
}

const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, i) => name === b[i]);

const isTemplate = (test: TestTitle) => hasModifier(test, "each") && hasPlaceholders(test.title);

/** True when a Baton test runs: not `.skip` or `.todo` (also through its describe). */
export function isActive(test: TestTitle): boolean {
  return !hasModifier(test, "skip") && !hasModifier(test, "todo");
}

/**
 * Matches the tests of one upstream file against the Baton tests mapped to it. An upstream test is
 * matched by a running Baton test with the same title, each Baton test standing for one upstream
 * test (those with the same describe path first, so duplicate titles pair up correctly); an
 * `it.each` template left unexpanded on either side matches every title it can produce. Unmatched
 * tests are divergent or deferred when `divergences` list them, and missing otherwise.
 */
export function matchTitles(
  upstream: readonly TestTitle[],
  baton: readonly BatonTest[],
  divergences: readonly Divergence[],
  hints: MatchHints = {},
): MatchResult {
  const active = baton.filter(isActive);
  const pool = active.filter((test) => !isTemplate(test));
  const templates = active.filter(isTemplate);
  const used = new Set<number>();
  const found = new Map<number, TitleResult>();

  const claim = (index: number, test: TestTitle, exact: boolean) => {
    for (const [j, candidate] of pool.entries()) {
      if (used.has(j) || candidate.title !== test.title) continue;
      if (exact && !samePath(candidate.describe, test.describe)) continue;
      used.add(j);
      found.set(index, matched(test, candidate));
      return;
    }
  };
  const literal = [...upstream.entries()].filter(([, test]) => !isTemplate(test));
  for (const [index, test] of literal) claim(index, test, true);
  for (const [index, test] of literal) if (!found.has(index)) claim(index, test, false);

  for (const [index, test] of upstream.entries()) {
    if (found.has(index)) continue;
    const candidate = isTemplate(test)
      ? active.find((b) => b.title === test.title || placeholderPattern(test.title).test(b.title))
      : templates.find((b) => placeholderPattern(b.title).test(test.title));
    if (candidate !== undefined) found.set(index, matched(test, candidate));
  }

  const results = upstream.map(
    (test, index) => found.get(index) ?? unmatched(test, divergences, baton, hints),
  );
  return { results, counts: countResults(results), stale: staleEntries(results, divergences) };
}

function matched(test: TestTitle, candidate: BatonTest): TitleResult {
  return {
    test,
    status: "matched",
    exactPath: samePath(candidate.describe, test.describe),
    batonFile: candidate.file,
  };
}

/** The divergence entry covering an upstream test, if any. */
export function divergenceFor(
  test: TestTitle,
  divergences: readonly Divergence[],
): Divergence | undefined {
  return divergences.find(
    (entry) =>
      (entry.titles?.includes(test.title) ?? false) ||
      (entry.describe !== undefined &&
        samePath(test.describe.slice(0, entry.describe.length), entry.describe)),
  );
}

function unmatched(
  test: TestTitle,
  divergences: readonly Divergence[],
  baton: readonly BatonTest[],
  hints: MatchHints,
): TitleResult {
  const entry = divergenceFor(test, divergences);
  if (entry !== undefined) {
    const result = { test, status: entry.kind, reason: entry.reason };
    return entry.link === undefined ? result : { ...result, link: entry.link };
  }
  const note = missingNote(test, baton, hints);
  return note === undefined ? { test, status: "missing" } : { test, status: "missing", note };
}

function missingNote(
  test: TestTitle,
  baton: readonly BatonTest[],
  hints: MatchHints,
): string | undefined {
  const inactive = baton.find((b) => !isActive(b) && b.title === test.title);
  if (inactive !== undefined)
    return `a Baton test with this title is skipped or todo (${inactive.file})`;
  const elsewhere = hints.anywhere
    ?.get(test.title)
    ?.find((b) => !baton.some((m) => m.file === b.file));
  if (elsewhere !== undefined) {
    return `a Baton test with this title is in ${elsewhere.file}, which is not mapped to this file`;
  }
  return undefined;
}

/** Sums results by status. */
export function countResults(results: readonly TitleResult[]): Counts {
  const count = (status: TitleStatus) => results.filter((r) => r.status === status).length;
  return {
    total: results.length,
    matched: count("matched"),
    exact: results.filter((r) => r.status === "matched" && r.exactPath === true).length,
    divergent: count("divergent"),
    deferred: count("deferred"),
    missing: count("missing"),
  };
}

/** Adds up several counts. */
export function sumCounts(all: readonly Counts[]): Counts {
  const sum = (key: keyof Counts) => all.reduce((total, counts) => total + counts[key], 0);
  return {
    total: sum("total"),
    matched: sum("matched"),
    exact: sum("exact"),
    divergent: sum("divergent"),
    deferred: sum("deferred"),
    missing: sum("missing"),
  };
}

function staleEntries(
  results: readonly TitleResult[],
  divergences: readonly Divergence[],
): string[] {
  const stale: string[] = [];
  for (const entry of divergences) {
    for (const title of entry.titles ?? []) {
      const tests = results.filter((r) => r.test.title === title);
      if (tests.length > 0 && tests.every((r) => r.status === "matched")) stale.push(title);
    }
  }
  return stale;
}
