import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const GRAPH_DIR = new URL("../src/graph/", import.meta.url);

/** Every module specifier the graph modules import. */
function graphImports(): string[] {
  return readdirSync(GRAPH_DIR)
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) =>
      [...readFileSync(new URL(file, GRAPH_DIR), "utf8").matchAll(/from\s+"([^"]+)"/g)].map(
        (match) => match[1] as string,
      ),
    );
}

describe("graph import boundary", () => {
  it("does not import the full adapter or runtime packages", () => {
    const imports = graphImports();
    expect(imports.length).toBeGreaterThan(0);
    const allowed = new Set(["@baton/core", "../errors.js", "./client.js", "./text.js"]);
    expect(imports.filter((specifier) => !allowed.has(specifier))).toEqual([]);
  });
});
