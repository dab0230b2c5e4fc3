// `ai` is an optional peer: `import("@baton/core")` must never load it, so a bot without the AI
// SDK installed still starts. Checked on the module graph the bundler builds (esbuild, the
// bundler tsup runs), from the same entry points the package exports.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const coreDir = fileURLToPath(new URL("../..", import.meta.url));
/** The part of esbuild's API used here (core does not depend on esbuild's types). */
interface Bundler {
  build(options: Record<string, unknown>): Promise<{
    metafile: {
      inputs: Record<string, unknown>;
      outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
    };
  }>;
}

// esbuild is tsup's own dependency; resolving it through tsup uses the version that builds us.
const esbuild = createRequire(createRequire(import.meta.url).resolve("tsup"))("esbuild") as Bundler;

/** The source files an entry bundles and the packages it imports, as the bundler resolves them. */
async function moduleGraph(entry: string) {
  const result = await esbuild.build({
    absWorkingDir: coreDir,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "node",
    packages: "external",
    conditions: ["@baton/source"],
    logLevel: "silent",
  });
  const outputs = Object.values(result.metafile.outputs);
  return {
    files: Object.keys(result.metafile.inputs),
    packages: outputs.flatMap((output) =>
      output.imports.filter((entry) => entry.external).map((entry) => entry.path),
    ),
  };
}

const isAi = (specifier: string) => specifier === "ai" || specifier.startsWith("ai/");

describe("@baton/core entry isolation", () => {
  it("bundles src/index.ts without the AI SDK or any file of src/ai", async () => {
    const graph = await moduleGraph("src/index.ts");

    expect(graph.files).toContain("src/runtime/chat.ts"); // the walk reached the runtime
    expect(graph.files.filter((file) => file.startsWith("src/ai/"))).toEqual([]);
    expect(graph.packages.filter(isAi)).toEqual([]);
  });

  it("does load the AI SDK from the @baton/core/ai entry", async () => {
    // The control: the same check does see `ai` where it is imported.
    const graph = await moduleGraph("src/ai/index.ts");

    expect(graph.files).toContain("src/ai/create-chat-tools.ts");
    expect(graph.packages.filter(isAi)).toContain("ai");
  });

  it("resolves @baton/core/ai through the package's exports map, to source and to the build", () => {
    // Resolved by Node itself from a workspace package that depends on @baton/core.
    const resolve = (conditions: string[]) =>
      execFileSync(
        process.execPath,
        [
          ...conditions,
          "--input-type=module",
          "-e",
          "console.log(import.meta.resolve('@baton/core/ai'))",
        ],
        { cwd: fileURLToPath(new URL("../../../testing", import.meta.url)), encoding: "utf8" },
      ).trim();

    expect(resolve(["--conditions=@baton/source"])).toMatch(/packages\/core\/src\/ai\/index\.ts$/);
    // tsup builds src/ai/index.ts to dist/ai/index.js (its entries share the src/ base).
    expect(resolve([])).toMatch(/packages\/core\/dist\/ai\/index\.js$/);
  });
});
