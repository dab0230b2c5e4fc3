#!/usr/bin/env node
// The release rehearsal, run by `npm test` after the unit tests (and alone with
// `pnpm rehearse-release`): a snapshot release of this tree to a local registry, installed from
// there into ordinary projects with plain npm. See docs/releasing.md.
//
// 1. copy the working tree to a temporary folder (the real one is never versioned);
// 2. there: install, apply a snapshot version (`changeset version --snapshot rehearsal`), build;
// 3. check every public package: manifest, README, publint, arethetypeswrong;
// 4. start verdaccio on 127.0.0.1 and publish every public package to it (`--tag rehearsal`);
// 5. pick-and-install: core + state-redis + adapter-twilio into an empty project, type-check
//    (nodenext and bundler) and run a program against the local Redis;
// 6. core + state-memory + testing into another, and run the README's examples verbatim;
// 7. `npm create baton-bot` from the registry for each platform, then that project's own test.
//
// Flags: `--keep` keeps the temporary folder; `--without packages/x` leaves a package out.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pickAndInstall, readmeExamples, scaffoldedProjects } from "./consumer-projects.mjs";
import { checkPackages, publicPackages } from "./package-checks.mjs";
import { startRegistry } from "./registry.mjs";
import { run } from "./run-command.mjs";
import { copyWorkspace } from "./workspace-copy.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "node_modules", ".bin");
const TAG = "rehearsal";
const keep = process.argv.includes("--keep");
// `--without packages/x`: leave a package out of the rehearsal, e.g. one still being written.
const without = process.argv.flatMap((arg, index) =>
  arg === "--without" ? [process.argv[index + 1]] : [],
);

/** Removes a package from the copy, with the changesets that name it (they would not apply). */
function leaveOut(copy, dir) {
  const manifest = join(copy, dir, "package.json");
  const name = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).name : undefined;
  rmSync(join(copy, dir), { recursive: true, force: true });
  if (name === undefined) return;
  for (const file of readdirSync(join(copy, ".changeset")).filter((f) => f.endsWith(".md"))) {
    const path = join(copy, ".changeset", file);
    if (readFileSync(path, "utf8").includes(`"${name}"`)) rmSync(path);
  }
}

const step = (title) => console.log(`==> rehearsal: ${title}`);
const work = mkdtempSync(join(tmpdir(), "baton-rehearsal-"));
const repo = join(work, "repo");
let registry;
try {
  step(`copying the working tree to ${repo}`);
  copyWorkspace(root, repo);
  for (const dir of without) leaveOut(repo, dir);
  run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", "--reporter=silent"], {
    cwd: repo,
  });

  step("applying a snapshot version");
  const packages = publicPackages(repo);
  // A snapshot needs a changeset; this one covers every package, so the rehearsal also works
  // right after a release, when .changeset/ holds none.
  writeFileSync(
    join(repo, ".changeset", "release-rehearsal.md"),
    `---\n${packages.map(({ manifest }) => `"${manifest.name}": patch`).join("\n")}\n---\n\nRelease rehearsal.\n`,
  );
  run("pnpm", ["exec", "changeset", "version", "--snapshot", TAG], { cwd: repo });
  const version = JSON.parse(
    readFileSync(join(repo, "packages/core/package.json"), "utf8"),
  ).version;
  console.log(`    every public package is now ${version}`);

  step("building the packages");
  run(
    "pnpm",
    ["exec", "turbo", "run", "build", "--filter=./packages/*", "--output-logs=errors-only"],
    {
      cwd: repo,
      env: { TURBO_TELEMETRY_DISABLED: "1" },
    },
  );

  step("checking every public package (manifest, README, publint, attw)");
  checkPackages(repo, bin);

  step("starting a local registry (verdaccio) and publishing");
  registry = await startRegistry({
    dir: join(work, "registry"),
    verdaccioBin: join(bin, "verdaccio"),
  });
  writeFileSync(
    join(repo, ".npmrc"),
    `${readFileSync(join(repo, ".npmrc"), "utf8")}\n${registry.npmrc}`,
  );
  run(
    "pnpm",
    [
      "-r",
      "--filter=./packages/*",
      "publish",
      "--no-git-checks",
      "--tag",
      TAG,
      "--registry",
      registry.url,
    ],
    { cwd: repo, quiet: false },
  );

  step("pick-and-install: @baton/core + @baton/state-redis + @baton/adapter-twilio");
  pickAndInstall(join(work, "pick-and-install"), registry, TAG);

  step("the README's examples: @baton/core + @baton/state-memory + @baton/testing");
  readmeExamples(
    join(work, "readme-example"),
    registry,
    TAG,
    readFileSync(join(root, "README.md"), "utf8"),
  );

  step("npm create baton-bot: one project per platform");
  scaffoldedProjects(work, registry, TAG, ["web", "slack", "teams", "telegram", "twilio"]);

  step(`passed (${version})`);
} catch (error) {
  console.error(`==> rehearsal FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await registry?.stop();
  if (keep) console.log(`    kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
