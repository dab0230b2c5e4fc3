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

// Upstream ships its connector client, card, format and webhook helpers as subpaths importable
// without the adapter. Here they are modules of one package; these tests keep each free of the
// adapter class, the webhook dispatcher and any State or test package.
function expectStandalone(entries: string[], allowed: RegExp = /^$/) {
  for (const entry of entries) {
    const { files, packages } = importClosure(entry);
    expect(
      [...files].filter(
        (file) => /teams-adapter|webhook|index|testing/.test(file) && !allowed.test(file),
      ),
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
    expectStandalone(["api.ts", "errors.ts"]);
  });
});

describe("cards import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone(["cards.ts", "post.ts"]);
  });
});

describe("format import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone(["format.ts"]);
  });
});

describe("webhook import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    // The webhook module itself is the dispatcher; its parser and the SDK host stand alone.
    expectStandalone(["parse.ts", "verify.ts", "message.ts"]);
  });
});

describe("modals import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone(["modals.ts", "dialogs.ts"]);
  });
});
