import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../src/cli-args.js";

describe("parseArgs", () => {
  it("writes the report by default", () => {
    expect(parseArgs([])).toEqual({ check: false, updateBaseline: false, help: false });
  });

  it("reads flags and paths, as separate arguments or with =", () => {
    expect(parseArgs(["--check", "--manifest", "m.json", "--repo=/r"])).toEqual({
      check: true,
      updateBaseline: false,
      help: false,
      manifest: "m.json",
      repo: "/r",
    });
    expect(parseArgs(["--update-baseline", "--upstream", "../chat"])).toMatchObject({
      updateBaseline: true,
      upstream: "../chat",
    });
    expect(parseArgs(["-h"]).help).toBe(true);
  });

  it("refuses unknown arguments, missing paths and contradictory options", () => {
    expect(() => parseArgs(["--chek"])).toThrow(UsageError);
    expect(() => parseArgs(["--chek"])).toThrow('unknown argument "--chek"');
    expect(() => parseArgs(["--manifest"])).toThrow("--manifest needs a path");
    expect(() => parseArgs(["--upstream", "--check"])).toThrow("--upstream needs a path");
    expect(() => parseArgs(["--manifest", "a", "--upstream", "b"])).toThrow(
      "give --manifest or --upstream, not both",
    );
    expect(() => parseArgs(["--check", "--update-baseline"])).toThrow(
      "give --check or --update-baseline, not both",
    );
  });
});
