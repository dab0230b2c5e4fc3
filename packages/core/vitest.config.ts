import { fileURLToPath } from "node:url";
import { mergeConfig } from "vitest/config";
import { packageProject } from "../../vitest.shared.js";

const jsxRuntime = (file: string) =>
  fileURLToPath(new URL(`./src/content/jsx/${file}`, import.meta.url));

// Core's .tsx tests use real JSX with Baton's own runtime (`jsxImportSource: "@baton/core"`).
// Core cannot resolve its own package name from node_modules, so the runtime subpaths are
// aliased to their sources here.
export default mergeConfig(packageProject("@baton/core"), {
  oxc: { jsx: { runtime: "automatic", importSource: "@baton/core" } },
  resolve: {
    alias: [
      { find: "@baton/core/jsx-dev-runtime", replacement: jsxRuntime("jsx-dev-runtime.ts") },
      { find: "@baton/core/jsx-runtime", replacement: jsxRuntime("jsx-runtime.ts") },
    ],
  },
  test: { include: ["test/**/*.test.tsx"] },
});
