/**
 * Pure checks of DESIGN §2–§3: core's internal layers, its independence from workspace packages,
 * and the shape of the workspace graph. No file system access here: the test reads the files and
 * passes their contents in, so every rule can also be exercised on synthetic inputs.
 */
import { posix } from "node:path";

/**
 * Core's layers, lowest first. A folder may import from itself and from folders of an earlier
 * rank; folders of the same rank must not import each other. A new top-level folder under `src/`
 * must be added here before the check passes.
 */
export const CORE_LAYERS: readonly (readonly string[])[] = [
  ["errors", "clock"],
  // Formatted content, cards and modals are plain data and pure functions that know no message;
  // a Message carries its mdast tree (`formatted`), so content sits below model.
  ["content"],
  ["model"],
  ["contracts"],
  ["thread-id"],
  ["routing", "concurrency", "coordination"],
  ["dispatch"],
  ["runtime"],
  // `@baton/core/ai`: AI SDK tools over threads and channels; its own entry, never the root one.
  ["ai"],
];

/** The top-level entry file, which may import anything and must not be imported by a layer. */
const ENTRY_FILE = "index.ts";

/** One source file, its path relative to `src/` with `/` separators. */
export interface SourceFile {
  path: string;
  source: string;
}

/** Core's `src/` as the check sees it. */
export interface CoreSources {
  /** Names of the directories directly under `src/`, including empty ones. */
  folders: readonly string[];
  /** Every source file under `src/` (test files excluded). */
  files: readonly SourceFile[];
}

/** The dependency fields of a package.json this check reads. */
export interface PackageManifest {
  name?: unknown;
  private?: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const DEPENDENCY_FIELDS = [
  "dependencies",
  "peerDependencies",
  "devDependencies",
  "optionalDependencies",
] as const;

const STATIC_IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

/**
 * Every module specifier in `source`: static `import … from`, side-effect `import "…"`,
 * `export … from`, and dynamic (or type-position) `import("…")`. A regex, not a parser: a
 * specifier-like string inside a comment is reported too, which errs on the strict side.
 */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const pattern of [STATIC_IMPORT, DYNAMIC_IMPORT]) {
    for (const match of source.matchAll(pattern)) {
      if (match[1] !== undefined) found.push(match[1]);
    }
  }
  return found;
}

/** The rank of a top-level folder, or `undefined` when it is not in {@link CORE_LAYERS}. */
export function layerRank(folder: string): number | undefined {
  const rank = CORE_LAYERS.findIndex((layer) => layer.includes(folder));
  return rank === -1 ? undefined : rank;
}

/**
 * The top-level unit a `src/`-relative path belongs to: its first folder, `index.ts` for the
 * entry file, or `null` when the path leaves `src/`.
 */
export function unitOf(path: string): string | null {
  const normalized = posix.normalize(path);
  if (normalized.startsWith("../") || normalized === "..") return null;
  return normalized.split("/")[0] ?? null;
}

function isTopLevelFile(unit: string, path: string): boolean {
  return posix.normalize(path) === unit;
}

/** Violations of the layer order by one file's imports. */
function checkFileImports(file: SourceFile, manifest: PackageManifest): string[] {
  const violations: string[] = [];
  const fromUnit = unitOf(file.path);
  for (const specifier of importSpecifiers(file.source)) {
    if (specifier.startsWith("@baton/")) {
      violations.push(`src/${file.path} imports the workspace package "${specifier}"`);
      continue;
    }
    if (!specifier.startsWith(".")) {
      if (!isDeclaredExternal(specifier, manifest)) {
        violations.push(
          `src/${file.path} imports "${specifier}", which is neither a node: builtin nor a ` +
            "dependency declared in packages/core/package.json",
        );
      }
      continue;
    }
    const target = posix.join(posix.dirname(file.path), specifier);
    const toUnit = unitOf(target);
    if (toUnit === null) {
      violations.push(`src/${file.path} imports "${specifier}", outside src/`);
      continue;
    }
    if (fromUnit === ENTRY_FILE || toUnit === fromUnit) continue;
    if (isTopLevelFile(toUnit, target) && toUnit.replace(/\.[cm]?[jt]sx?$/, "") === "index") {
      violations.push(`src/${file.path} imports the entry file src/index.ts`);
      continue;
    }
    const fromRank = fromUnit === null ? undefined : layerRank(fromUnit);
    const toRank = layerRank(toUnit);
    if (fromRank === undefined || toRank === undefined) continue; // reported as unknown units
    if (toRank > fromRank) {
      violations.push(`src/${file.path} (layer ${fromUnit}) imports the higher layer ${toUnit}`);
    } else if (toRank === fromRank) {
      violations.push(`src/${file.path} (layer ${fromUnit}) imports its sibling layer ${toUnit}`);
    }
  }
  return violations;
}

function isDeclaredExternal(specifier: string, manifest: PackageManifest): boolean {
  if (specifier.startsWith("node:")) return true;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  // A types-only package (`import type { Root } from "mdast"`) is declared as `@types/<name>`.
  const typesName = name?.startsWith("@")
    ? `@types/${name.slice(1).replace("/", "__")}`
    : `@types/${name}`;
  return [manifest.dependencies, manifest.peerDependencies].some(
    (deps) => deps !== undefined && name !== undefined && (name in deps || typesName in deps),
  );
}

function unknownFolder(folder: string): string {
  return `src/${folder}/ is not in the layer list; place it in CORE_LAYERS`;
}

/**
 * Every violation of DESIGN §2–§3 by core's sources and manifest: workspace packages imported or
 * declared, undeclared external imports, imports up or across the layer order, and files outside
 * the known layers. An empty list means the check passes.
 */
export function checkCoreLayers(src: CoreSources, manifest: PackageManifest): string[] {
  const violations: string[] = [];
  for (const field of DEPENDENCY_FIELDS) {
    for (const name of Object.keys(manifest[field] ?? {})) {
      if (name.startsWith("@baton/")) {
        violations.push(
          `packages/core/package.json lists the workspace package ${name} in ${field}`,
        );
      }
    }
  }
  const unknownUnits = new Set<string>();
  for (const folder of src.folders) {
    if (layerRank(folder) === undefined) unknownUnits.add(unknownFolder(folder));
  }
  for (const file of src.files) {
    const unit = unitOf(file.path);
    const topLevelFile = unit !== null && isTopLevelFile(unit, file.path);
    if (unit === null || (topLevelFile && unit !== ENTRY_FILE)) {
      unknownUnits.add(`src/${file.path} is a top-level file other than src/index.ts`);
    } else if (!topLevelFile && layerRank(unit) === undefined) {
      unknownUnits.add(unknownFolder(unit));
    }
    violations.push(...checkFileImports(file, manifest));
  }
  return [...unknownUnits, ...violations];
}

/** What a `packages/<folder>` directory holds, as far as the shape check needs. */
export interface PackageDir {
  folder: string;
  /** Paths relative to the package folder that exist (e.g. `README.md`, `src/index.ts`). */
  files: ReadonlySet<string>;
  /** The parsed package.json, or `undefined` when it is missing. */
  manifest: PackageManifest | undefined;
}

/** The files every package must have (Vercel-style machine-checked package shape). */
export const REQUIRED_PACKAGE_FILES = ["README.md", "tsup.config.ts", "src/index.ts"] as const;

/** Violations of the package shape: required files and the name `@baton/<folder>`. */
export function checkPackageShape(pkg: PackageDir): string[] {
  const violations: string[] = [];
  if (pkg.manifest === undefined) {
    return [`packages/${pkg.folder} has no package.json`];
  }
  for (const file of REQUIRED_PACKAGE_FILES) {
    if (!pkg.files.has(file)) violations.push(`packages/${pkg.folder} has no ${file}`);
  }
  // `npm create baton-bot` runs the package `create-baton-bot`: npm's naming rule, not ours.
  const expected = pkg.folder.startsWith("create-") ? pkg.folder : `@baton/${pkg.folder}`;
  if (pkg.manifest.name !== expected) {
    violations.push(
      `packages/${pkg.folder}/package.json is named ${JSON.stringify(pkg.manifest.name)}, ` +
        `expected "${expected}"`,
    );
  }
  return violations;
}

/**
 * Violations of the peer rule: a `state-*` or `adapter-*` package takes `@baton/core` as a peer
 * dependency and never as a regular one. Other packages are not judged.
 */
export function checkCorePeer(pkg: PackageDir): string[] {
  if (!/^(state|adapter)-/.test(pkg.folder) || pkg.manifest === undefined) return [];
  const violations: string[] = [];
  if (!("@baton/core" in (pkg.manifest.peerDependencies ?? {}))) {
    violations.push(`packages/${pkg.folder} does not list @baton/core in peerDependencies`);
  }
  if ("@baton/core" in (pkg.manifest.dependencies ?? {})) {
    violations.push(`packages/${pkg.folder} lists @baton/core in dependencies`);
  }
  return violations;
}

/** Violations of "apps are private": an `apps/<folder>` package.json without `private: true`. */
export function checkAppPrivate(folder: string, manifest: PackageManifest | undefined): string[] {
  if (manifest === undefined) return [`apps/${folder} has no package.json`];
  return manifest.private === true ? [] : [`apps/${folder}/package.json is not "private": true`];
}
