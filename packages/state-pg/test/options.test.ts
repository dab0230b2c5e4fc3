import { ConfigError, silentLogger } from "@baton/core";
import { Pool } from "pg";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createPostgresState, DEFAULT_SCHEMA, type PostgresStateOptions } from "../src/index.js";

const url = "postgres://postgres@127.0.0.1:5432/test";

function problemsOf(options: unknown): readonly string[] {
  try {
    createPostgresState(options as PostgresStateOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
}

describe("createPostgresState options", () => {
  it("applies the defaults: schema baton, no key prefix", () => {
    const state = createPostgresState({ url });
    expect(state.name).toBe("postgres");
    expect(state.schema).toBe(DEFAULT_SCHEMA);
    expect(state.keyPrefix).toBe("");
  });

  it("lists every problem in one ConfigError, naming each option", () => {
    const problems = problemsOf({
      url: "mysql://root@localhost/db",
      schema: "Bad-Name",
      keyPrefix: 5,
      timeoutMs: 0,
      purgeIntervalMs: -1,
      logger: { info: () => {} },
      timeout: 5_000,
    });
    expect(problems).toHaveLength(7);
    for (const option of [
      "timeout",
      "url",
      "schema",
      "keyPrefix",
      "timeoutMs",
      "purgeIntervalMs",
      "logger",
    ]) {
      expect(problems.some((problem) => problem.startsWith(`${option}:`))).toBe(true);
    }
  });

  it("accepts fastPaths only as a boolean", () => {
    expect(problemsOf({ url, fastPaths: "yes" })).toEqual([
      'fastPaths: must be true or false, got "yes"',
    ]);
  });

  it("requires exactly one of url, pool and sql", () => {
    expect(problemsOf({})).toEqual([
      "url, pool or sql: one is required (a postgres:// URL, a pg Pool, or a postgres.js instance)",
    ]);
    const pool = new Pool({ connectionString: url });
    const sql = postgres(url);
    expect(problemsOf({ url, pool })[0]).toMatch(/^url, pool and sql: give one, not several/);
    expect(problemsOf({ url, sql })[0]).toMatch(/^url, pool and sql: give one, not several/);
    expect(problemsOf({ pool: {} })[0]).toMatch(/^pool: must be a pg Pool/);
    expect(createPostgresState({ pool }).schema).toBe("baton");
    expect(createPostgresState({ sql }).schema).toBe("baton");
  });

  it("refuses a pg Pool given as sql, naming both", () => {
    const pool = new Pool({ connectionString: url });
    expect(problemsOf({ sql: pool })).toEqual([
      'sql: must be a postgres.js instance (postgres(…) from "postgres"), got a pg Pool (node-postgres)',
    ]);
    expect(problemsOf({ sql: {} })[0]).toMatch(/^sql: must be a postgres\.js instance/);
  });

  it("accepts only schema names that need no quoting and are not reserved", () => {
    for (const schema of ["baton", "_x", "tenant_42", "a".repeat(63)]) {
      expect(createPostgresState({ url, schema }).schema).toBe(schema);
    }
    for (const schema of [
      "",
      "Baton",
      "1st",
      "x-y",
      'x"; DROP SCHEMA public; --',
      "pg_temp",
      "a".repeat(64),
      7,
    ]) {
      expect(problemsOf({ url, schema })[0]).toMatch(/^schema: /);
    }
  });

  it("keeps the password out of the problem text", () => {
    const [problem] = problemsOf({ url: "mysql://admin:hunter2@db.example/prod" });
    expect(problem).not.toContain("hunter2");
    expect(problem).toContain("admin:***@");
  });

  it("accepts purgeIntervalMs 0 to turn the purge timer off, and a silent logger", () => {
    expect(() =>
      createPostgresState({ url, purgeIntervalMs: 0, logger: silentLogger }),
    ).not.toThrow();
    expect(problemsOf({ url, timeoutMs: Number.POSITIVE_INFINITY })[0]).toMatch(/^timeoutMs: /);
    expect(problemsOf(null)[0]).toMatch(/^options: must be an object/);
  });
});
