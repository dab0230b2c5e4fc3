import { defineProject } from "vitest/config";

/**
 * Workspace packages export their TypeScript source under the `@baton/source` condition, so tests
 * run against source without a build. The rest are Vite's default server conditions (which a
 * custom list would otherwise replace) minus `module`: vitest hands the list to Node, and some
 * packages (e.g. @opentelemetry/api) publish a bundler-only build under `module`.
 */
const conditions = ["@baton/source", "node", "development|production"];

/** The vitest project of one workspace package. */
export function packageProject(name: string) {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      name,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    },
  });
}
