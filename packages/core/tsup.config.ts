import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "ai/index": "src/ai/index.ts",
    // The JSX runtimes live in content/ (a top-level file would sit outside the layers) and are
    // emitted at the package root, where `jsxImportSource: "@baton/core"` looks for them.
    "jsx-runtime": "src/content/jsx/jsx-runtime.ts",
    "jsx-dev-runtime": "src/content/jsx/jsx-dev-runtime.ts",
  },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
