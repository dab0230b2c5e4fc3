// Package hygiene of every public package, as a user installing it from a registry meets it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "./run-command.mjs";

/** Peers only some users need (`@baton/core/ai` needs `ai`): never installed for the others. */
const OPTIONAL_PEERS = ["ai"];

/** The problems of one package's manifest and README, in words a maintainer can act on. */
export function manifestProblems(dir, manifest, readme) {
  const problems = [];
  const need = (condition, problem) => condition || problems.push(problem);
  need(manifest.license === "MIT", "license must be MIT");
  need(
    typeof manifest.repository?.url === "string" && manifest.repository.directory === dir,
    `repository must name the git URL and directory "${dir}"`,
  );
  need(typeof manifest.engines?.node === "string", "engines.node must be set");
  need(manifest.type === "module", 'type must be "module"');
  need(manifest.sideEffects === false, "sideEffects must be false");
  need(Array.isArray(manifest.files) && manifest.files.includes("dist"), 'files must list "dist"');
  need(typeof manifest.exports?.["."] === "object", 'exports must have a "." entry');
  for (const [subpath, entry] of Object.entries(manifest.exports ?? {})) {
    need(
      typeof entry?.types === "string" && typeof entry?.import === "string",
      `exports["${subpath}"] must give "types" and "import"`,
    );
  }
  if (manifest.name !== "@baton/core" && manifest.name.startsWith("@baton/")) {
    const range = manifest.peerDependencies?.["@baton/core"];
    need(
      range === "workspace:^",
      `peerDependencies["@baton/core"] must be "workspace:^" (published as ^<version>), got ${JSON.stringify(range)}`,
    );
    need(
      manifest.dependencies?.["@baton/core"] === undefined,
      "@baton/core must be a peer dependency, not a dependency",
    );
  }
  for (const peer of OPTIONAL_PEERS) {
    if (manifest.peerDependencies?.[peer] === undefined) continue;
    need(
      manifest.peerDependenciesMeta?.[peer]?.optional === true,
      `the peer dependency ${peer} must be marked optional in peerDependenciesMeta`,
    );
  }
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  need(
    headings[0] === "Install",
    `the README's first section must be "Install", got ${headings[0]}`,
  );
  need(
    /^## Install\s+```sh\n(?:pnpm add|npm install|npm create) /m.test(readme),
    "the README's Install section must start with a pnpm add / npm install / npm create block",
  );
  need(
    /example/i.test(headings[1] ?? ""),
    `the README's second section must be a minimal example, got ${headings[1]}`,
  );
  return problems;
}

/** The public packages of the workspace at `root`: `packages/*` that are not private. */
export function publicPackages(root) {
  const names = run("ls", [join(root, "packages")], { quiet: true })
    .split("\n")
    .filter(Boolean);
  return names
    .map((name) => `packages/${name}`)
    .filter((dir) => existsSync(join(root, dir, "package.json")))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")),
    }))
    .filter(({ manifest }) => manifest.private !== true);
}

/**
 * Checks every public package of the built workspace at `root`: its manifest and README, then
 * publint and arethetypeswrong (`attw --pack`, ESM profile) on the packed tarball. Throws one
 * Error listing every problem found.
 */
export function checkPackages(root, bin) {
  const problems = [];
  for (const { dir, manifest } of publicPackages(root)) {
    const readme = existsSync(join(root, dir, "README.md"))
      ? readFileSync(join(root, dir, "README.md"), "utf8")
      : "";
    for (const problem of manifestProblems(dir, manifest, readme)) {
      problems.push(`${manifest.name}: ${problem}`);
    }
    for (const [tool, args] of [
      ["publint", [join(root, dir), "--strict"]],
      ["attw", ["--pack", join(root, dir), "--profile", "esm-only", "--format", "table-flipped"]],
    ]) {
      try {
        run(join(bin, tool), args, { cwd: root, quiet: true });
      } catch (error) {
        problems.push(`${manifest.name}: ${tool} found problems:\n${error.message}`);
      }
    }
    console.log(`    ${manifest.name}: manifest, README, publint, attw checked`);
  }
  if (problems.length > 0) throw new Error(`package checks failed:\n- ${problems.join("\n- ")}`);
}
