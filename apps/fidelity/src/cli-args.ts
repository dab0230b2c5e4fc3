/** What the `fidelity` command was asked to do. */
export interface CliOptions {
  /** Compare with the baseline and docs/fidelity.md instead of writing; exit 1 on a failure. */
  readonly check: boolean;
  /** Rewrite apps/fidelity/baseline.json from the current numbers (and docs/fidelity.md). */
  readonly updateBaseline: boolean;
  /** An upstream manifest JSON to read instead of the default one. */
  readonly manifest?: string;
  /** A checkout of vercel/chat to extract upstream's titles from instead of a manifest. */
  readonly upstream?: string;
  /** The Baton repository; default: the one this app is in. */
  readonly repo?: string;
  readonly help: boolean;
}

/** The `--help` text. */
export const USAGE = `Usage: pnpm --filter @baton/fidelity fidelity [options]

Matches upstream chat's test titles against Baton's, per mapped file pair, prints the numbers and
writes docs/fidelity.md.

Options:
  --manifest PATH     upstream titles as JSON (default: <repo>/../shared/upstream/vercel-chat-4.38.1.tests.json)
  --upstream DIR      extract upstream titles from a checkout of vercel/chat instead
  --check             write nothing; fail (exit 1) when a file's missing count rises above
                      apps/fidelity/baseline.json, the divergence list has a mistake, or
                      docs/fidelity.md claims more than is true
  --update-baseline   record the current missing counts in apps/fidelity/baseline.json
  --repo DIR          the Baton repository (default: the one containing this app)
  -h, --help          show this text`;

/** A command-line mistake; the message is meant for the user. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Parses the command line (without `node` and the script). Throws a {@link UsageError}. */
export function parseArgs(argv: readonly string[]): CliOptions {
  let check = false;
  let updateBaseline = false;
  let help = false;
  const values: { manifest?: string; upstream?: string; repo?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg];
    switch (flag) {
      case "--check":
        check = true;
        break;
      case "--update-baseline":
        updateBaseline = true;
        break;
      case "-h":
      case "--help":
        help = true;
        break;
      case "--manifest":
      case "--upstream":
      case "--repo": {
        const value = inline ?? argv[++i];
        if (
          value === undefined ||
          value === "" ||
          (inline === undefined && value.startsWith("--"))
        ) {
          throw new UsageError(`${flag} needs a path`);
        }
        values[flag.slice(2) as "manifest" | "upstream" | "repo"] = value;
        break;
      }
      default:
        throw new UsageError(`unknown argument ${JSON.stringify(arg)}\n\n${USAGE}`);
    }
  }
  if (values.manifest !== undefined && values.upstream !== undefined) {
    throw new UsageError("give --manifest or --upstream, not both");
  }
  if (check && updateBaseline) {
    throw new UsageError("give --check or --update-baseline, not both");
  }
  return { check, updateBaseline, help, ...values };
}
