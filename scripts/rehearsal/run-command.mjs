// Runs one command for the release rehearsal, echoing it first, and fails loudly with its output.
import { spawnSync } from "node:child_process";

/**
 * The environment a user's shell would give: without the `npm_config_*` variables npm exports to
 * the scripts it runs (`npm test` sets `npm_config_registry`, which would beat every project's
 * `.npmrc` and send the rehearsal's installs to the public registry).
 */
function userEnvironment() {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_config_")),
  );
}

/**
 * Runs `command args` in `cwd` with `env` added; returns stdout. On a non-zero exit it throws an
 * Error naming the command and carrying its output, so the rehearsal stops at the failing step.
 */
export function run(command, args, { cwd, env = {}, quiet = false } = {}) {
  if (!quiet) console.log(`    $ ${command} ${args.join(" ")}${cwd ? `   (in ${cwd})` : ""}`);
  const result = spawnSync(command, args, {
    cwd,
    env: { ...userEnvironment(), ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
    throw new Error(
      `\`${command} ${args.join(" ")}\` exited ${result.status ?? result.signal}:\n${output}`,
    );
  }
  return result.stdout ?? "";
}
