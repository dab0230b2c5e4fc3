import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  type CoreSources,
  checkAppPrivate,
  checkCoreLayers,
  checkCorePeer,
  checkPackageShape,
  importSpecifiers,
  type PackageDir,
  type PackageManifest,
  type SourceFile,
} from "./support/layers.js";

const coreDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

const SOURCE_FILE = /\.(?:ts|tsx|mts|cts)$/;
const TEST_FILE = /\.test\.(?:ts|tsx|mts|cts)$/;

/** Directory names directly under `dir`; none when it does not exist. */
function subfolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
}

/** Every file under `dir`, as `/`-separated paths relative to `dir`. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"));
}

function readManifest(dir: string): PackageManifest | undefined {
  const path = join(dir, "package.json");
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8")) as PackageManifest;
}

/** Core's own sources (tests excluded: they may import test tooling core does not depend on). */
function readCoreSources(): CoreSources {
  const srcDir = join(coreDir, "src");
  const files: SourceFile[] = filesUnder(srcDir)
    .filter((path) => SOURCE_FILE.test(path) && !TEST_FILE.test(path))
    .map((path) => ({ path, source: readFileSync(join(srcDir, path), "utf8") }));
  return { folders: subfolders(srcDir), files };
}

function readPackageDir(dir: string, folder: string): PackageDir {
  const files = new Set<string>();
  for (const path of ["README.md", "tsup.config.ts", "src/index.ts"]) {
    if (existsSync(join(dir, path))) files.add(path);
  }
  return { folder, files, manifest: readManifest(dir) };
}

function workspacePackages(): PackageDir[] {
  const packagesDir = join(repoRoot, "packages");
  return subfolders(packagesDir).map((folder) => readPackageDir(join(packagesDir, folder), folder));
}

const emptyManifest: PackageManifest = {};

function source(path: string, text: string): SourceFile {
  return { path, source: text };
}

function check(files: SourceFile[], manifest: PackageManifest = emptyManifest): string[] {
  const folders = files
    .map((file) => file.path.split("/"))
    .filter((parts) => parts.length > 1)
    .map((parts) => parts[0] as string);
  return checkCoreLayers({ folders: [...new Set(folders)], files }, manifest);
}

describe("core architecture (DESIGN §2–§3)", () => {
  it("finds core's sources to check", () => {
    const { files } = readCoreSources();
    expect(files.map((file) => file.path)).toContain("index.ts");
    expect(files.length).toBeGreaterThan(5);
    const message = files.find((file) => file.path === "model/message.ts");
    expect(importSpecifiers(message?.source ?? "")).toContain("../errors/index.js");
  });

  it("imports no workspace package and keeps every layer below the ones it imports", () => {
    const manifest = readManifest(coreDir);
    expect(manifest).toBeDefined();
    expect(checkCoreLayers(readCoreSources(), manifest ?? emptyManifest)).toEqual([]);
  });
});

describe("workspace graph (DESIGN §2)", () => {
  it("gives every package README.md, tsup.config.ts, src/index.ts and the name @baton/<folder>", () => {
    const packages = workspacePackages();
    expect(packages.map((pkg) => pkg.folder)).toContain("core");
    expect(packages.flatMap(checkPackageShape)).toEqual([]);
  });

  it("has every state and adapter package take @baton/core as a peer, never a dependency", () => {
    expect(workspacePackages().flatMap(checkCorePeer)).toEqual([]);
  });

  it("keeps every app private", () => {
    const appsDir = join(repoRoot, "apps");
    const violations = subfolders(appsDir).flatMap((folder) =>
      checkAppPrivate(folder, readManifest(join(appsDir, folder))),
    );
    expect(violations).toEqual([]);
  });
});

describe("importSpecifiers", () => {
  it("finds static, type-only, side-effect, re-export and dynamic specifiers", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../b/index.js";',
      "import {",
      "  c,",
      "  type D,",
      "} from './c.js';",
      'import "./side-effect.js";',
      'export { e } from "./e.js";',
      'export * from "./f.js";',
      'export * as g from "./g.js";',
      'const h = await import("./h.js");',
      'type I = import("./i.js").I;',
      'export const notAnImport = "./j.js";',
    ].join("\n");
    expect(importSpecifiers(text).sort()).toEqual(
      [
        "./a.js",
        "../b/index.js",
        "./c.js",
        "./side-effect.js",
        "./e.js",
        "./f.js",
        "./g.js",
        "./h.js",
        "./i.js",
      ].sort(),
    );
  });
});

describe("checkCoreLayers on synthetic sources", () => {
  it("accepts imports within a layer and from lower layers", () => {
    expect(
      check([
        source("errors/errors.ts", 'import { BatonError } from "./baton-error.js";'),
        source("model/message.ts", 'import { ValidationError } from "../errors/index.js";'),
        source("dispatch/pipeline.ts", 'import { route } from "../routing/route.js";'),
        source("runtime/chat.ts", 'import { dispatch } from "../dispatch/pipeline.js";'),
        source("index.ts", 'export { Chat } from "./runtime/chat.js";'),
      ]),
    ).toEqual([]);
  });

  it("reports a lower layer importing a higher one", () => {
    const violations = check([
      source("model/message.ts", 'import type { Logger } from "../contracts/logger.js";'),
    ]);
    expect(violations).toEqual([
      "src/model/message.ts (layer model) imports the higher layer contracts",
    ]);
  });

  it("reports a dynamic import of a higher layer", () => {
    const violations = check([
      source("routing/route.ts", 'const { run } = await import("../dispatch/run.js");'),
    ]);
    expect(violations).toEqual([
      "src/routing/route.ts (layer routing) imports the higher layer dispatch",
    ]);
  });

  it("reports routing and concurrency importing each other", () => {
    const violations = check([
      source("routing/route.ts", 'import { lockKey } from "../concurrency/lock-key.js";'),
      source("concurrency/queue.ts", 'export { route } from "../routing/route.js";'),
    ]);
    expect(violations).toEqual([
      "src/routing/route.ts (layer routing) imports its sibling layer concurrency",
      "src/concurrency/queue.ts (layer concurrency) imports its sibling layer routing",
    ]);
  });

  it("reports errors and clock importing each other, since they share a rank", () => {
    const violations = check([
      source("errors/errors.ts", 'import type { Clock } from "../clock/index.js";'),
    ]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/sibling layer clock/);
  });

  it("reports a layer importing the entry file", () => {
    const violations = check([
      source("model/message.ts", 'import { BatonError } from "../index.js";'),
    ]);
    expect(violations).toEqual(["src/model/message.ts imports the entry file src/index.ts"]);
    expect(check([source("routing/route.ts", 'export * from "../index";')])).toEqual([
      "src/routing/route.ts imports the entry file src/index.ts",
    ]);
  });

  it("reports an import of a @baton/ workspace package, even from the entry file", () => {
    const violations = check([
      source("index.ts", 'export { MemoryState } from "@baton/state-memory";'),
      source("model/message.ts", 'import type { X } from "@baton/x";'),
    ]);
    expect(violations).toEqual([
      'src/index.ts imports the workspace package "@baton/state-memory"',
      'src/model/message.ts imports the workspace package "@baton/x"',
    ]);
  });

  it("reports a @baton/ package in any dependency field of core's package.json", () => {
    const manifest: PackageManifest = {
      dependencies: { "@baton/testing": "workspace:*" },
      peerDependencies: { "@baton/state-memory": "workspace:^" },
      devDependencies: { "@baton/conformance": "workspace:*", vitest: "4.1.12" },
    };
    expect(check([], manifest)).toEqual([
      "packages/core/package.json lists the workspace package @baton/testing in dependencies",
      "packages/core/package.json lists the workspace package @baton/state-memory in peerDependencies",
      "packages/core/package.json lists the workspace package @baton/conformance in devDependencies",
    ]);
  });

  it("accepts node: builtins and declared dependencies but reports undeclared packages", () => {
    const files = [
      source("clock/clock.ts", 'import { setTimeout } from "node:timers/promises";'),
      source("runtime/otel.ts", 'import { trace } from "@opentelemetry/api/trace";'),
      source("runtime/redis.ts", 'import { createClient } from "redis";'),
    ];
    const violations = check(files, { dependencies: { "@opentelemetry/api": "^1.9.0" } });
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^src\/runtime\/redis\.ts imports "redis"/);
  });

  it("reports an unknown top-level folder, also an empty one", () => {
    expect(check([source("helpers/strings.ts", "export const x = 1;")])).toEqual([
      "src/helpers/ is not in the layer list; place it in CORE_LAYERS",
    ]);
    expect(checkCoreLayers({ folders: ["utils"], files: [] }, emptyManifest)).toEqual([
      "src/utils/ is not in the layer list; place it in CORE_LAYERS",
    ]);
  });

  it("reports a top-level file other than index.ts", () => {
    expect(check([source("helpers.ts", "export const x = 1;")])).toEqual([
      "src/helpers.ts is a top-level file other than src/index.ts",
    ]);
  });

  it("reports an import that leaves src/", () => {
    expect(
      check([source("model/message.ts", 'import { x } from "../../test/support/x.js";')]),
    ).toEqual(['src/model/message.ts imports "../../test/support/x.js", outside src/']);
  });
});

function pkg(folder: string, manifest: PackageManifest | undefined, files: string[]): PackageDir {
  return { folder, manifest, files: new Set(files) };
}

const ALL_FILES = ["README.md", "tsup.config.ts", "src/index.ts"];

describe("workspace checks on synthetic packages", () => {
  it("accepts a package with its files and the name @baton/<folder>", () => {
    expect(
      checkPackageShape(pkg("state-redis", { name: "@baton/state-redis" }, ALL_FILES)),
    ).toEqual([]);
  });

  it("names a create-* package after its folder, as npm create requires", () => {
    expect(
      checkPackageShape(pkg("create-baton-bot", { name: "create-baton-bot" }, ALL_FILES)),
    ).toEqual([]);
    expect(
      checkPackageShape(pkg("create-baton-bot", { name: "@baton/create-baton-bot" }, ALL_FILES)),
    ).toEqual([
      'packages/create-baton-bot/package.json is named "@baton/create-baton-bot", expected "create-baton-bot"',
    ]);
  });

  it("reports each missing file, a wrong name and a missing package.json", () => {
    expect(checkPackageShape(pkg("state-pg", { name: "baton-pg" }, ["src/index.ts"]))).toEqual([
      "packages/state-pg has no README.md",
      "packages/state-pg has no tsup.config.ts",
      'packages/state-pg/package.json is named "baton-pg", expected "@baton/state-pg"',
    ]);
    expect(checkPackageShape(pkg("stray", undefined, []))).toEqual([
      "packages/stray has no package.json",
    ]);
  });

  it("reports an adapter without the core peer and a backend with core as a dependency", () => {
    const adapter = pkg("adapter-slack", { dependencies: { "@slack/web-api": "^7.0.0" } }, []);
    const backend = pkg(
      "state-redis",
      {
        dependencies: { "@baton/core": "workspace:^" },
        peerDependencies: { "@baton/core": "workspace:^" },
      },
      [],
    );
    expect(checkCorePeer(adapter)).toEqual([
      "packages/adapter-slack does not list @baton/core in peerDependencies",
    ]);
    expect(checkCorePeer(backend)).toEqual([
      "packages/state-redis lists @baton/core in dependencies",
    ]);
  });

  it("leaves packages other than state-* and adapter-* out of the peer rule", () => {
    expect(checkCorePeer(pkg("testing", { dependencies: { "@baton/core": "1" } }, []))).toEqual([]);
  });

  it("reports an app that is not private", () => {
    expect(checkAppPrivate("playground", { private: true })).toEqual([]);
    expect(checkAppPrivate("bench", { private: "yes" })).toEqual([
      'apps/bench/package.json is not "private": true',
    ]);
    expect(checkAppPrivate("fidelity", {})).toEqual([
      'apps/fidelity/package.json is not "private": true',
    ]);
  });

  it("finds no apps, rather than failing, when apps/ does not exist", () => {
    expect(subfolders(join(repoRoot, "does-not-exist"))).toEqual([]);
  });
});
