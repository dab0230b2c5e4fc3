import { describe, expect, it } from "vitest";
import { checkHttpUrl, checkInteger, configOrEnv } from "../../src/runtime/adapter-config.js";

describe("adapter option checks", () => {
  it("prefers the configured value, falls back to the environment, and treats blanks as unset", () => {
    expect(configOrEnv(" from-config ", "from-env")).toBe("from-config");
    expect(configOrEnv(undefined, "from-env")).toBe("from-env");
    expect(configOrEnv("   ", "from-env")).toBeUndefined();
    expect(configOrEnv(undefined, "")).toBeUndefined();
  });

  it("accepts absent and http(s) URLs and names the field of any other", () => {
    const problems: string[] = [];
    checkHttpUrl(problems, "apiUrl", undefined);
    checkHttpUrl(problems, "apiUrl", "https://example.test/api");
    checkHttpUrl(problems, "apiUrl", "http://127.0.0.1:8080");
    expect(problems).toEqual([]);
    checkHttpUrl(problems, "apiUrl", "/relative");
    checkHttpUrl(problems, "graphUrl", "ftp://example.test");
    expect(problems).toEqual([
      'apiUrl must be an absolute URL, got "/relative"',
      'graphUrl must be an http(s) URL, got "ftp://example.test"',
    ]);
  });

  it("states the accepted integer range the way it was asked for", () => {
    const problems: string[] = [];
    checkInteger(problems, "maxRetries", 3, 0, 20);
    checkInteger(problems, "maxBodyBytes", 1, 1);
    expect(problems).toEqual([]);
    checkInteger(problems, "maxRetries", 21, 0, 20);
    checkInteger(problems, "maxBodyBytes", 0, 1);
    checkInteger(problems, "retryDelayMs", 1.5, 0);
    expect(problems).toEqual([
      "maxRetries must be an integer in 0–20, got 21",
      "maxBodyBytes must be an integer ≥ 1, got 0",
      "retryDelayMs must be an integer ≥ 0, got 1.5",
    ]);
  });
});
