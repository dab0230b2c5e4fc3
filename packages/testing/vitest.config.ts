import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["@baton/source"] },
  test: {
    name: "@baton/testing",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
