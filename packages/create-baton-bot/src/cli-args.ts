/** The command line of `create-baton-bot`, parsed. */
export interface CliArgs {
  readonly directory: string | undefined;
  readonly platforms: readonly string[] | undefined;
  readonly state: string | undefined;
  readonly packageManager: string | undefined;
  /** Ask nothing: every choice not given takes its default. */
  readonly yes: boolean;
  readonly force: boolean;
  readonly batonVersion: string | undefined;
  readonly help: boolean;
}

const VALUE_FLAGS = new Set(["--platform", "--state", "--pm", "--baton-version"]);

/**
 * Parses `[directory] [--platform web,twilio] [--state memory|redis|postgres] [--pm npm|pnpm|yarn]
 * [--yes] [--force] [--baton-version <range|tag>] [--help]`; `--flag=value` works too. Throws an
 * Error naming an unknown flag or a flag without its value.
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const [flag, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (VALUE_FLAGS.has(flag)) {
      const value = inline ?? argv[++index];
      if (value === undefined || value.startsWith("--")) throw new Error(`${flag} needs a value`);
      values.set(flag, value);
    } else if (["--yes", "--force", "--help"].includes(flag) && inline === undefined) {
      switches.add(flag);
    } else {
      throw new Error(`unknown option ${arg}; see --help`);
    }
  }
  if (positional.length > 1) throw new Error(`one folder only, got ${positional.join(" ")}`);
  const platforms = values.get("--platform");
  return {
    directory: positional[0],
    platforms: platforms
      ?.split(",")
      .map((name) => name.trim())
      .filter(Boolean),
    state: values.get("--state"),
    packageManager: values.get("--pm"),
    yes: switches.has("--yes"),
    force: switches.has("--force"),
    batonVersion: values.get("--baton-version"),
    help: switches.has("--help"),
  };
}
