import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "../src");
const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g;

/** Every source file and package the module `entry` reaches through its imports, transitively. */
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

/** The adapter itself: its class, the webhook dispatcher and routing, sockets, installations. */
const ADAPTER_FILES =
  /^(slack-adapter.*|slack-(assistant|conversations|identity|messages|modal|schedule|user)|webhook|webhook-target|events|interactions|installation-routing|installations|oauth|socket|native-stream|token-context|options)\.ts$/;

/**
 * `@baton/adapter-slack/{api,blocks,format,webhook}` are importable without the adapter: their
 * import closure holds none of the adapter's modules, and only the packages listed. `@baton/core`
 * is the peer every Baton adapter has (card and markdown types, the error classes).
 */
function expectStandalone(entry: string, packages: readonly string[]) {
  const closure = importClosure(entry);
  expect(
    [...closure.files].filter((file) => ADAPTER_FILES.test(file)),
    entry,
  ).toEqual([]);
  expect([...closure.packages].sort(), entry).toEqual([...packages].sort());
}

describe("api import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone("api/index.ts", ["@baton/core", "@slack/web-api", "node:buffer"]);
  });
});

describe("blocks import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    // Pure rendering: neither Slack library (no WebClient, no bolt) is reached.
    expectStandalone("blocks/index.ts", ["@baton/core", "mdast"]);
  });
});

describe("format import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone("format/index.ts", ["@baton/core", "mdast"]);
  });
});

describe("webhook import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    expectStandalone("webhook/index.ts", ["@baton/core", "@slack/bolt"]);
    // The walk does see the adapter where it is imported, so the checks above can fail.
    expect(importClosure("index.ts").files.has("slack-adapter.ts")).toBe(true);
    expect(importClosure("webhook.ts").files.has("events.ts")).toBe(true);
  });
});
