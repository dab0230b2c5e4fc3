import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "../src");
const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g;

/** Every file and package the module `entry` reaches through its imports, transitively. */
function importClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, specifier] of readFileSync(join(SRC, file), "utf8").matchAll(IMPORT)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith(".")) {
        visit(relative(SRC, join(SRC, dirname(file), specifier)).replace(/\.js$/, ".ts"));
      } else {
        packages.add(specifier);
      }
    }
  };
  visit(entry);
  return { files, packages };
}

// Upstream keeps its REST, formatting and webhook helpers importable without the adapter; here
// they are modules of one package, and these tests keep them free of the adapter class, the
// webhook dispatcher and any State or test package, so each stays usable on its own.
function expectStandalone(entries: string[]) {
  for (const entry of entries) {
    const { files, packages } = importClosure(entry);
    expect(
      [...files].filter((file) => /twilio-adapter|webhook|index/.test(file)),
      entry,
    ).toEqual([]);
    expect(
      [...packages].filter((name) => /^@baton\/(state-|testing|conformance)/.test(name)),
      entry,
    ).toEqual([]);
  }
}

describe("api import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone(["api.ts"]);
  });
});

describe("format import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone(["format.ts", "split.ts", "cards.ts"]);
  });
});

describe("webhook import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone(["verify.ts", "parse.ts"]);
    // The closure walk itself sees the adapter where it is imported.
    expect(importClosure("index.ts").files.has("twilio-adapter.ts")).toBe(true);
  });
});

describe("voice import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone(["voice.ts"]);
    // Its TwiML comes from the official library, not from hand-built XML.
    expect(importClosure("voice.ts").packages).toEqual(new Set(["twilio"]));
  });
});
