import { defineConfig } from "vitest/config";

// One root config; every package is a project (see vitest.shared.ts), so `vitest run` at the
// root runs everything and `vitest run --project @baton/core` runs one package.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts"],
  },
});
