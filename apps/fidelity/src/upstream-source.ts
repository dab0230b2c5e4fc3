import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractTitles } from "./extract-titles.js";
import { expandGlobs } from "./glob.js";
import type { TestFile, TestTitle } from "./test-title.js";

/** The upstream manifest's file name, in `<repo>/../shared/upstream/`. */
export const DEFAULT_MANIFEST = "vercel-chat-4.38.1.tests.json";

/** Upstream's test titles, file by file, and where they came from. */
export interface UpstreamTests {
  /** A one-line description of the source, for the report header. */
  readonly source: string;
  readonly files: readonly TestFile[];
}

/**
 * Reads an upstream manifest (`{ upstream, files: [{ file, count, tests }] }`), checking its
 * shape so a malformed file fails here with its path rather than later as a wrong number.
 */
export function loadManifest(path: string, label = path): UpstreamTests {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`read upstream manifest ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const manifest = parsed as { upstream?: unknown; files?: unknown };
  if (!Array.isArray(manifest.files)) {
    throw new Error(`upstream manifest ${path}: expected a "files" array`);
  }
  const files = manifest.files.map((file: unknown, index: number): TestFile => {
    const entry = file as { file?: unknown; tests?: unknown };
    if (typeof entry.file !== "string" || !Array.isArray(entry.tests)) {
      throw new Error(`upstream manifest ${path}: files[${index}] needs "file" and "tests"`);
    }
    const tests = entry.tests.map((test: unknown) => checkedTest(test, path, entry.file as string));
    return { file: entry.file, count: tests.length, tests };
  });
  const origin = typeof manifest.upstream === "string" ? manifest.upstream : "upstream";
  return { source: `${label} (${origin})`, files };
}

function checkedTest(test: unknown, path: string, file: string): TestTitle {
  const entry = test as Partial<TestTitle>;
  const valid =
    typeof entry.title === "string" &&
    Array.isArray(entry.describe) &&
    entry.describe.every((name) => typeof name === "string") &&
    (entry.modifiers === undefined || Array.isArray(entry.modifiers));
  if (!valid) throw new Error(`upstream manifest ${path}: a test of ${file} is malformed`);
  return entry as TestTitle;
}

/** Test files of a checkout of vercel/chat: every `*.test.ts(x)` under `packages/`. */
export const UPSTREAM_TEST_GLOBS = ["packages/**/*.test.ts", "packages/**/*.test.tsx"];

/**
 * Extracts upstream's titles from a checkout of vercel/chat with the same extractor as Baton's
 * (so `it.each` is expanded the same way on both sides).
 */
export function extractCheckout(directory: string): UpstreamTests {
  const files = expandGlobs(directory, UPSTREAM_TEST_GLOBS).map((file): TestFile => {
    const { tests } = extractTitles(readFileSync(join(directory, file), "utf8"), file);
    return { file, count: tests.length, tests };
  });
  if (files.length === 0)
    throw new Error(`--upstream ${directory}: no packages/**/*.test.ts files`);
  return { source: `titles extracted from ${directory}`, files };
}
