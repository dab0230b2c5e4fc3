import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { PACKAGE_MANAGERS, type PackageManager, PLATFORMS, STATES } from "./platforms.js";
import { projectFiles } from "./templates/project-files.js";

/** What to scaffold, as the CLI's flags or answers give it. */
export interface ScaffoldOptions {
  /** The folder to write into; created when missing. */
  readonly directory: string;
  /** Platform names (`web`, `twilio`); at least one. */
  readonly platforms: readonly string[];
  /** `memory`, `redis` or `postgres`. */
  readonly state: string;
  readonly packageManager: string;
  /** Write into a non-empty folder (files of the same name are replaced). Default false. */
  readonly force?: boolean;
  /** The version or dist-tag of every `@baton/*` dependency. Default `latest`. */
  readonly batonVersion?: string;
}

/** What {@link scaffold} wrote, and the two commands to run next. */
export interface ScaffoldResult {
  readonly directory: string;
  readonly files: readonly string[];
  readonly nextCommands: readonly [string, string];
}

/** A problem with the options, worded for the person who typed them. */
export class ScaffoldError extends Error {
  override readonly name = "ScaffoldError";
}

function choose<T extends { name: string }>(all: readonly T[], name: string, what: string): T {
  const found = all.find((item) => item.name === name);
  if (!found) {
    throw new ScaffoldError(
      `unknown ${what} ${JSON.stringify(name)}; one of ${all.map((item) => item.name).join(", ")}`,
    );
  }
  return found;
}

function packageName(directory: string): string {
  const name = basename(resolve(directory))
    .toLowerCase()
    .replace(/[^a-z0-9-_.]+/g, "-")
    .replace(/^[-_.]+/, "");
  return name === "" ? "baton-bot" : name;
}

/**
 * Writes a ready bot project: handlers (`src/bot.ts`), a node:http webhook server, `.env.example`
 * with the chosen platforms' variables, and a test per platform against its offline testing kit.
 * Refuses a non-empty folder unless `force`, and unknown platforms, States or package managers,
 * with a {@link ScaffoldError} naming the problem — before writing anything.
 */
export function scaffold(options: ScaffoldOptions): ScaffoldResult {
  if (options.platforms.length === 0) throw new ScaffoldError("choose at least one platform");
  const platforms = [...new Set(options.platforms)].map((name) =>
    choose(PLATFORMS, name, "platform"),
  );
  const state = choose(STATES, options.state, "State backend");
  if (!PACKAGE_MANAGERS.includes(options.packageManager as PackageManager)) {
    throw new ScaffoldError(
      `unknown package manager ${JSON.stringify(options.packageManager)}; one of ${PACKAGE_MANAGERS.join(", ")}`,
    );
  }
  const directory = resolve(options.directory);
  if (existsSync(directory) && readdirSync(directory).length > 0 && !options.force) {
    throw new ScaffoldError(`${directory} is not empty; choose another folder, or pass --force`);
  }
  const files = projectFiles({
    name: packageName(directory),
    platforms,
    state,
    batonVersion: options.batonVersion ?? "latest",
    packageManager: options.packageManager,
  });
  for (const [path, content] of Object.entries(files)) {
    const target = join(directory, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  const pm = options.packageManager;
  return {
    directory,
    files: Object.keys(files),
    nextCommands: [`cd ${options.directory}`, `${pm} install && ${pm} test`],
  };
}
