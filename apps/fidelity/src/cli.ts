import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type CliOptions, parseArgs, USAGE, UsageError } from "./cli-args.js";
import { checkDocs } from "./docs-check.js";
import { baselineOf, compareWithBaseline, readBaseline, writeBaseline } from "./ratchet.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderTable } from "./render-table.js";
import { computeFidelity, type FidelityInput, type FidelityReport } from "./run-fidelity.js";
import {
  DEFAULT_MANIFEST,
  extractCheckout,
  loadManifest,
  type UpstreamTests,
} from "./upstream-source.js";

/** The Baton repository this app lives in. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Where the app's files live, relative to the repository root. */
export const PATHS = {
  baseline: "apps/fidelity/baseline.json",
  docs: "docs/fidelity.md",
} as const;

/** The mapping and divergences to use; the app's own by default (tests pass small ones). */
export type FidelityConfig = Pick<FidelityInput, "mappings" | "divergences">;

/** Where output goes; tests pass their own. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const consoleIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** The default upstream manifest of a repository: `<repo>/../shared/upstream/…json`. */
export function defaultManifest(repoRoot: string): string {
  return resolve(repoRoot, "..", "shared", "upstream", DEFAULT_MANIFEST);
}

/** Reads upstream's titles as the options say. */
export function loadUpstream(
  repoRoot: string,
  options: Pick<CliOptions, "manifest" | "upstream">,
): UpstreamTests {
  if (options.upstream !== undefined) return extractCheckout(resolve(options.upstream));
  const path = resolve(options.manifest ?? defaultManifest(repoRoot));
  return loadManifest(path, options.manifest ?? `../shared/upstream/${DEFAULT_MANIFEST}`);
}

/** What `--check` found. */
export interface CheckResult {
  readonly report: FidelityReport;
  readonly failures: string[];
  readonly hints: string[];
}

/**
 * The CI check: the divergence list has no mistakes, no file's missing count is above the
 * baseline, and `docs/fidelity.md` claims no more than is true. Writes nothing.
 */
export function checkRepo(
  repoRoot: string,
  upstream: UpstreamTests,
  config: FidelityConfig = {},
): CheckResult {
  const report = computeFidelity({ ...config, repoRoot, upstream });
  const ratchet = compareWithBaseline(report, readBaseline(join(repoRoot, PATHS.baseline)));
  const docsPath = join(repoRoot, PATHS.docs);
  const docs = checkDocs(existsSync(docsPath) ? readFileSync(docsPath, "utf8") : undefined, report);
  return {
    report,
    failures: [
      ...report.problems.map((p) => `problem: ${p}`),
      ...ratchet.failures,
      ...docs.failures,
    ],
    hints: [...ratchet.hints, ...docs.hints],
  };
}

/** Runs the command; resolves to the exit code. */
export function runCli(
  argv: readonly string[],
  io: CliIo = consoleIo,
  config: FidelityConfig = {},
): number {
  let options: CliOptions;
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`fidelity: ${error.message}`);
    return 2;
  }
  if (options.help) {
    io.out(USAGE);
    return 0;
  }
  const repoRoot = resolve(options.repo ?? REPO_ROOT);
  try {
    const upstream = loadUpstream(repoRoot, options);
    return options.check
      ? runCheck(repoRoot, upstream, config, io)
      : runWrite(repoRoot, options, computeFidelity({ ...config, repoRoot, upstream }), io);
  } catch (error) {
    io.err(`fidelity: ${(error as Error).message}`);
    return 1;
  }
}

function runCheck(
  repoRoot: string,
  upstream: UpstreamTests,
  config: FidelityConfig,
  io: CliIo,
): number {
  const { report, failures, hints } = checkRepo(repoRoot, upstream, config);
  io.out(renderTable(report));
  for (const warning of report.warnings) io.out(`note: ${warning}`);
  for (const hint of hints) io.out(`hint: ${hint}`);
  for (const failure of failures) io.err(`FAIL ${failure}`);
  if (failures.length > 0) return 1;
  io.out("fidelity check passed");
  return 0;
}

function runWrite(
  repoRoot: string,
  options: CliOptions,
  report: FidelityReport,
  io: CliIo,
): number {
  io.out(renderTable(report));
  for (const warning of report.warnings) io.out(`note: ${warning}`);
  for (const problem of report.problems) io.err(`problem: ${problem}`);
  writeFileSync(join(repoRoot, PATHS.docs), renderMarkdown(report));
  io.out(`wrote ${PATHS.docs}`);
  if (report.problems.length > 0) return 1;
  const baselinePath = join(repoRoot, PATHS.baseline);
  if (options.updateBaseline) {
    writeBaseline(baselinePath, baselineOf(report));
    io.out(`wrote ${PATHS.baseline}`);
    return 0;
  }
  if (!existsSync(baselinePath)) {
    io.out(`no ${PATHS.baseline} yet; record one with --update-baseline`);
    return 0;
  }
  const ratchet = compareWithBaseline(report, readBaseline(baselinePath));
  for (const hint of ratchet.hints) io.out(`hint: ${hint}`);
  for (const failure of ratchet.failures) io.err(`above baseline (--check will fail): ${failure}`);
  return 0;
}
