#!/usr/bin/env node
// Installs and runs pnpm — the version pinned in package.json's "packageManager" — on a machine
// that may have only Node and npm, so `npm start` and `npm test` work on a fresh clone:
//
//   node scripts/with-pnpm.mjs                  install (when npm launched it), nothing else
//   node scripts/with-pnpm.mjs <pnpm args…>     install (when npm launched it), then pnpm <args…>
//
// It uses the pnpm on PATH when it is the pinned version, else `npx --yes pnpm@<version>`
// (corepack cannot fetch pnpm on every network; npm can). When npm launched it (`npm start`,
// `npm test`) it runs `pnpm install` first; when pnpm launched it (`pnpm start`, `pnpm test`),
// installing stays the user's business, as usual with pnpm. Root scripts call it with a
// different script name than their own (`test` runs `test:all`), so it never recurses.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { packageManager } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
);
const version = /^pnpm@(\d+\.\d+\.\d+)$/.exec(packageManager ?? "")?.[1];
if (!version)
  fail(`package.json "packageManager" must be "pnpm@x.y.z", got ${JSON.stringify(packageManager)}`);

const launchedByPnpm = (process.env.npm_config_user_agent ?? "").startsWith("pnpm/");
const pnpm = pnpmCommand();

if (!launchedByPnpm) {
  console.error(`==> installing dependencies with ${pnpm.join(" ")} install`);
  const install = spawnSync(pnpm[0], [...pnpm.slice(1), "install"], {
    cwd: root,
    stdio: "inherit",
  });
  if (install.status !== 0) fail(`pnpm install failed (exit ${install.status ?? install.signal})`);
}

const args = process.argv.slice(2);
if (args.length === 0) process.exit(0);

const child = spawn(pnpm[0], [...pnpm.slice(1), ...args], {
  cwd: root,
  stdio: "inherit",
});
// Ctrl-C already reaches the child (the terminal signals the whole process group): stay alive
// until it has shut down cleanly instead of dying first. SIGTERM targets one process: pass it on.
process.on("SIGINT", () => {});
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
child.on("error", (error) => fail(`could not start pnpm: ${error.message}`));

function pnpmCommand() {
  const probe = spawnSync("pnpm", ["--version"], { encoding: "utf8" });
  if (probe.status === 0 && probe.stdout.trim() === version) return ["pnpm"];
  return ["npx", "--yes", `pnpm@${version}`];
}

function fail(message) {
  console.error(`with-pnpm: ${message}`);
  process.exit(1);
}
