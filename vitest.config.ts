import { defineConfig } from "vitest/config";

// One root config; every package is a project so `vitest run` at the root runs everything
// and `vitest run --project @baton/core` runs one package.
export default defineConfig({
  resolve: { conditions: ["@baton/source"] },
  test: {
    projects: ["packages/*"],
  },
});
