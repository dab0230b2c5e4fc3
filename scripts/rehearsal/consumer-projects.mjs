// Projects outside the workspace that install Baton from the rehearsal registry with plain npm.
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { run } from "./run-command.mjs";

const CONSUMER = new URL("./consumer/", import.meta.url);

function npmProject(dir, registry, dependencies) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, ".npmrc"), registry.npmrc);
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "baton-consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...dependencies], {
    cwd: dir,
  });
}

/** The `@baton/*` packages npm put into `dir`. */
function installedBatonPackages(dir) {
  return readdirSync(join(dir, "node_modules", "@baton"))
    .map((name) => `@baton/${name}`)
    .sort();
}

/**
 * Project A: `@baton/core`, `@baton/state-redis` and `@baton/adapter-twilio` only. The program
 * type-checks under `moduleResolution: "nodenext"` and `"bundler"`, runs on Node against the
 * local Redis, and nothing else of the monorepo was installed.
 */
export function pickAndInstall(dir, registry, tag) {
  const picked = ["@baton/core", "@baton/state-redis", "@baton/adapter-twilio"];
  npmProject(dir, registry, [
    ...picked.map((name) => `${name}@${tag}`),
    "typescript@5.9.3",
    "@types/node@^20.17.0",
  ]);
  for (const file of ["program.ts", "tsconfig.nodenext.json", "tsconfig.bundler.json"]) {
    cpSync(new URL(file, CONSUMER), join(dir, file));
  }
  const installed = installedBatonPackages(dir);
  if (!isDeepStrictEqual(installed, [...picked].sort())) {
    throw new Error(
      `npm installed ${installed.join(", ")}; only ${picked.join(", ")} were asked for`,
    );
  }
  const tsc = join(dir, "node_modules", ".bin", "tsc");
  run(tsc, ["-p", "tsconfig.bundler.json"], { cwd: dir });
  run(tsc, ["-p", "tsconfig.nodenext.json"], { cwd: dir });
  console.log(`    ${run("node", ["dist/program.js"], { cwd: dir }).trim()}`);
}

/** The README's runnable examples: the first ```ts block under each of these headings. */
export const README_EXAMPLES = ["Quick example", "Rich replies"];

/** The first ```ts block under the heading `## {title}` of `readme`. */
export function readmeCode(readme, title) {
  const section = readme.split(new RegExp(`^## ${title}$`, "m"))[1];
  const code = section && /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error(`README.md has no \`\`\`ts block under "## ${title}"`);
  return code;
}

/**
 * What the example says it prints: each `// …` comment right after (or at the end of) a line
 * with `console.log(`, read as JSON.
 */
export function expectedOutputs(code) {
  const lines = code.split("\n");
  const expected = [];
  lines.forEach((line, index) => {
    if (!line.includes("console.log(")) return;
    const inline = /\);\s*\/\/ (.+)$/.exec(line)?.[1];
    const next = /^\s*\/\/ (.+)$/.exec(lines[index + 1] ?? "")?.[1];
    const comment = inline ?? next;
    if (comment === undefined) throw new Error(`no expected output after: ${line.trim()}`);
    expected.push(JSON.parse(comment));
  });
  return expected;
}

/**
 * Project B: `@baton/core`, `@baton/state-memory` and `@baton/testing`, running each of the
 * README's examples verbatim (only `console.log` is made to print JSON), and checking that each
 * prints what the README says.
 */
export function readmeExamples(dir, registry, tag, readme) {
  npmProject(dir, registry, [
    `@baton/core@${tag}`,
    `@baton/state-memory@${tag}`,
    `@baton/testing@${tag}`,
    "tsx@4.23.15",
  ]);
  const printAsJson =
    "console.log = (...values) => process.stdout.write(`${JSON.stringify(values.length === 1 ? values[0] : values)}\\n`);\n";
  README_EXAMPLES.forEach((title, index) => {
    const code = readmeCode(readme, title);
    const file = `example-${index + 1}.mts`;
    writeFileSync(join(dir, file), printAsJson + code);
    const printed = run(join(dir, "node_modules", ".bin", "tsx"), [file], { cwd: dir })
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const expected = expectedOutputs(code);
    if (!isDeepStrictEqual(printed, expected)) {
      throw new Error(
        `the README's "${title}" printed\n${JSON.stringify(printed)}\nbut the README says\n${JSON.stringify(expected)}`,
      );
    }
    console.log(`    README "${title}": printed ${printed.length} lines, as the README says`);
  });
}

/**
 * `npm create baton-bot` from the registry, once per platform: a project with the memory State,
 * installed with plain npm, whose own test (against the platform's offline kit) must pass.
 */
export function scaffoldedProjects(work, registry, tag, platforms) {
  for (const platform of platforms) {
    const parent = join(work, `create-${platform}`);
    mkdirSync(parent, { recursive: true });
    writeFileSync(join(parent, ".npmrc"), registry.npmrc);
    run(
      "npm",
      [
        "exec",
        "--yes",
        `create-baton-bot@${tag}`,
        "--",
        "bot",
        "--platform",
        platform,
        "--state",
        "memory",
        "--pm",
        "npm",
        "--yes",
        "--baton-version",
        tag,
      ],
      { cwd: parent },
    );
    const dir = join(parent, "bot");
    writeFileSync(join(dir, ".npmrc"), registry.npmrc);
    run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir });
    run("npm", ["run", "typecheck"], { cwd: dir });
    run("npm", ["test"], { cwd: dir });
    console.log(
      `    npm create baton-bot --platform ${platform}: installed, type-checked, its test passed`,
    );
  }
}
