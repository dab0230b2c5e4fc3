#!/usr/bin/env node
import { stdin, stdout } from "node:process";
import { createInterface } from "node:readline/promises";
import { parseCliArgs } from "./cli-args.js";
import { PACKAGE_MANAGERS, PLATFORMS, STATES } from "./platforms.js";
import { ScaffoldError, scaffold } from "./scaffold.js";

const HELP = `npm create baton-bot [folder] -- [options]

  --platform <list>   ${PLATFORMS.map((p) => p.name).join(", ")} (comma-separated; default web)
  --state <name>      ${STATES.map((s) => s.name).join(", ")} (default memory)
  --pm <name>         ${PACKAGE_MANAGERS.join(", ")} (default: the one running this, else npm)
  --yes               ask nothing; defaults for what is not given
  --force             write into a non-empty folder
  --baton-version <v> version or dist-tag of the @baton packages (default latest)
`;

/** The package manager that launched this process, from npm's user agent, else npm. */
function launchingPackageManager(): string {
  const agent = process.env.npm_config_user_agent ?? "";
  return PACKAGE_MANAGERS.find((pm) => agent.startsWith(`${pm}/`)) ?? "npm";
}

async function ask(question: string, fallback: string): Promise<string> {
  const prompt = createInterface({ input: stdin, output: stdout });
  try {
    const answer = (await prompt.question(`${question} (${fallback}) `)).trim();
    return answer === "" ? fallback : answer;
  } finally {
    prompt.close();
  }
}

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2));
  if (args.help) {
    stdout.write(HELP);
    return;
  }
  const interactive = !args.yes && stdin.isTTY === true;
  const menu = (items: readonly { name: string; title: string }[]) =>
    items.map((item) => `  ${item.name}: ${item.title}`).join("\n");
  const directory = args.directory ?? (interactive ? await ask("Folder?", "my-bot") : "my-bot");
  const platforms =
    args.platforms ??
    (interactive
      ? (await ask(`Platforms, comma-separated:\n${menu(PLATFORMS)}\n`, "web")).split(",")
      : ["web"]);
  const state =
    args.state ??
    (interactive ? await ask(`State backend:\n${menu(STATES)}\n`, "memory") : "memory");
  const packageManager =
    args.packageManager ??
    (interactive
      ? await ask(`Package manager (${PACKAGE_MANAGERS.join(", ")})?`, launchingPackageManager())
      : launchingPackageManager());
  const result = scaffold({
    directory,
    platforms: platforms.map((name) => name.trim()).filter(Boolean),
    state,
    packageManager,
    force: args.force,
    ...(args.batonVersion === undefined ? {} : { batonVersion: args.batonVersion }),
  });
  stdout.write(`Created a Baton bot in ${result.directory}. Next:\n\n`);
  for (const command of result.nextCommands) stdout.write(`  ${command}\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`create-baton-bot: ${message}\n`);
  if (!(error instanceof ScaffoldError)) process.stderr.write("Run with --help for the options.\n");
  process.exitCode = 1;
});
