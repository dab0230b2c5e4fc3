import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Divergence } from "./divergences/divergence.js";
import { DIVERGENCES } from "./divergences/index.js";
import { extractTitles } from "./extract-titles.js";
import { expandGlobs } from "./glob.js";
import { ALL_BATON_TESTS, type BatonPart, FILE_MAPPINGS, type FileMapping } from "./mapping.js";
import {
  type BatonTest,
  type Counts,
  divergenceFor,
  isActive,
  matchTitles,
  sumCounts,
  type TitleResult,
} from "./match.js";
import type { UnresolvedTitle } from "./test-title.js";
import type { UpstreamTests } from "./upstream-source.js";

/** The outcome for one mapped upstream file. */
export interface FileReport {
  readonly upstream: string;
  /** Baton files mapped to it that exist now. */
  readonly batonFiles: readonly string[];
  readonly note?: string;
  readonly results: readonly TitleResult[];
  readonly counts: Counts;
  /** Divergence titles that are matched now. */
  readonly stale: readonly string[];
}

/** The whole fidelity report. */
export interface FidelityReport {
  /** Where upstream's titles came from. */
  readonly source: string;
  readonly files: readonly FileReport[];
  readonly totals: Counts;
  /** Mistakes in the mapping or the divergence list; `--check` fails on any. */
  readonly problems: readonly string[];
  /** Things to tidy that do not make the numbers wrong (stale entries, computed titles). */
  readonly warnings: readonly string[];
}

/** Inputs of {@link computeFidelity}; the mapping and divergences default to the app's own. */
export interface FidelityInput {
  readonly repoRoot: string;
  readonly upstream: UpstreamTests;
  readonly mappings?: readonly FileMapping[];
  readonly divergences?: readonly Divergence[];
}

/**
 * Reads Baton's test titles, matches them per mapped file pair against upstream's, and checks the
 * divergence list against upstream's titles.
 */
export function computeFidelity(input: FidelityInput): FidelityReport {
  const { repoRoot, upstream } = input;
  const mappings = input.mappings ?? FILE_MAPPINGS;
  const divergences = input.divergences ?? DIVERGENCES;
  const reader = new BatonReader(repoRoot);
  const anywhere = new Map<string, BatonTest[]>();
  for (const test of expandGlobs(repoRoot, ALL_BATON_TESTS).flatMap((f) => reader.tests(f))) {
    if (isActive(test)) anywhere.set(test.title, [...(anywhere.get(test.title) ?? []), test]);
  }
  const problems = checkDivergences(repoRoot, upstream, mappings, divergences);
  const warnings: string[] = [];
  const files = mappings.flatMap((mapping): FileReport[] => {
    const upstreamFile = upstream.files.find((file) => file.file === mapping.upstream);
    if (upstreamFile === undefined) {
      problems.push(`mapping: ${mapping.upstream} is not in the upstream titles`);
      return [];
    }
    const own = divergences.filter((entry) => entry.upstream === mapping.upstream);
    const { files: batonFiles, tests, unresolved } = reader.mapped(mapping.baton);
    for (const { file, title } of unresolved) {
      const where = `${mapping.upstream}: ${file}:${title.line}`;
      warnings.push(`${where}: title computed at run time, so it cannot match: ${title.source}`);
    }
    const { results, counts, stale } = matchTitles(upstreamFile.tests, tests, own, { anywhere });
    for (const title of stale) {
      warnings.push(
        `${mapping.upstream}: "${title}" is matched now; remove it from the divergences`,
      );
    }
    const report = { upstream: mapping.upstream, batonFiles, results, counts, stale };
    return [mapping.note === undefined ? report : { ...report, note: mapping.note }];
  });
  return {
    source: upstream.source,
    files,
    totals: sumCounts(files.map((file) => file.counts)),
    problems,
    warnings,
  };
}

/** Reads and caches the titles of Baton's files. */
class BatonReader {
  readonly #cache = new Map<string, { tests: BatonTest[]; unresolved: UnresolvedTitle[] }>();

  constructor(readonly repoRoot: string) {}

  tests(file: string): BatonTest[] {
    return this.#read(file).tests;
  }

  /** The tests (and computed titles) of the files and parts `entries` name. */
  mapped(entries: readonly (string | BatonPart)[]): {
    files: string[];
    tests: BatonTest[];
    unresolved: { file: string; title: UnresolvedTitle }[];
  } {
    const files = new Set<string>();
    const tests: BatonTest[] = [];
    const unresolved: { file: string; title: UnresolvedTitle }[] = [];
    for (const entry of entries) {
      const part = typeof entry === "string" ? { glob: entry, under: undefined } : entry;
      const wanted = (path: readonly string[]) =>
        part.under === undefined || part.under.includes(path[0] ?? "");
      for (const file of expandGlobs(this.repoRoot, [part.glob])) {
        if (files.has(file)) continue;
        const read = this.#read(file);
        const own = read.tests.filter((test) => wanted(test.describe));
        const computed = read.unresolved.filter((title) => wanted(title.describe));
        if (part.under !== undefined && own.length === 0 && computed.length === 0) continue;
        files.add(file);
        tests.push(...own);
        unresolved.push(...computed.map((title) => ({ file, title })));
      }
    }
    return { files: [...files].sort(), tests, unresolved };
  }

  #read(file: string) {
    let entry = this.#cache.get(file);
    if (entry === undefined) {
      const extraction = extractTitles(readFileSync(join(this.repoRoot, file), "utf8"), file);
      entry = {
        tests: extraction.tests.map((test) => ({ ...test, file })),
        unresolved: extraction.unresolved,
      };
      this.#cache.set(file, entry);
    }
    return entry;
  }
}

/**
 * Problems in the divergence list: an entry for an unmapped file, a title or describe path that
 * upstream does not have (a typo would silently cover nothing), a `divergent` entry without a
 * link, or a link to a file that does not exist.
 */
export function checkDivergences(
  repoRoot: string,
  upstream: UpstreamTests,
  mappings: readonly FileMapping[],
  divergences: readonly Divergence[],
): string[] {
  const problems: string[] = [];
  for (const entry of divergences) {
    const where = `divergences: ${entry.upstream}`;
    const file = upstream.files.find((f) => f.file === entry.upstream);
    if (!mappings.some((mapping) => mapping.upstream === entry.upstream) || file === undefined) {
      problems.push(`${where}: not a mapped upstream file`);
      continue;
    }
    // Entries of other upstream files may name the same title (each adapter has a "subclass
    // extensibility" block): only this file's entries can list it twice.
    const ofFile = divergences.filter((other) => other.upstream === entry.upstream);
    for (const title of entry.titles ?? []) {
      if (!file.tests.some((test) => test.title === title)) {
        problems.push(`${where}: no upstream test titled "${title}"`);
      } else if (file.tests.some((t) => t.title === title && divergenceFor(t, ofFile) !== entry)) {
        problems.push(`${where}: "${title}" is listed twice`);
      }
    }
    if (entry.describe !== undefined) {
      const path = entry.describe;
      if (!file.tests.some((test) => path.every((name, i) => test.describe[i] === name))) {
        problems.push(`${where}: no upstream tests under "${path.join(" > ")}"`);
      }
    }
    if (entry.titles === undefined && entry.describe === undefined) {
      problems.push(`${where}: an entry needs titles or a describe path`);
    }
    if (entry.kind === "divergent" && entry.link === undefined) {
      problems.push(
        `${where}: a divergent entry needs a link to its ADR or doc ("${entry.reason}")`,
      );
    }
    if (entry.link !== undefined && !existsSync(join(repoRoot, entry.link.split("#")[0] ?? ""))) {
      problems.push(`${where}: link ${entry.link} does not exist`);
    }
  }
  return problems;
}
