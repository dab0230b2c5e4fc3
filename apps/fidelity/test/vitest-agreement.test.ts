import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, test } from "vitest";
import { extractTitles } from "../src/extract-titles.js";

// The tests in the block below exist for their names only: each records the name vitest gave it,
// and the last test checks that the extractor, reading this very file, predicts every one.

const seen: string[] = [];
const record = () => {
  seen.push(expect.getState().currentTestName ?? "");
};
const SHARED_CASES = [
  ["shared", 1],
  ["cases", 2],
] as const;
const LONG = "a description long enough for vitest to shorten it";

describe("vitest agreement fixtures", () => {
  it("a plain title", record);
  it(`a template title without substitutions`, record);
  it("a title " + "joined from literals", record);

  describe("nested", () => {
    it("inner test", record);
  });

  it.each([
    ["text", 1, 2.5],
    ["more text", -0, 3],
    ["all four", 7, 7.9, "2.50"],
  ])("%s with %d and %i and %f", record);
  it.each([1, 2])("case %# of %$ is %s", record);
  it.each([{ a: 1 }])("object %s and %j and %o", record);
  it.each([["100%"]])("escapes %% before %s", record);
  it.each([
    { name: "short", nested: { depth: 2 }, flag: true },
    { name: LONG, nested: { depth: 3 }, flag: null },
  ])("$name at depth $nested.depth is $flag", record);
  it.each([
    ["first", "second"],
    ["third", "fourth"],
  ])("array keys $0 and $1", record);
  it.each(SHARED_CASES)("const cases %s %i", record);
  it.each(["it's", "tab\there"])("quoted $0 and plain %s", record);
  test.each`
    a    | b      | sum
    ${1} | ${"x"} | ${3}
    ${2} | ${"y"} | ${5}
  `("table $a with $b gives $sum", record);
  test.for([
    ["for", 1],
    ["loop", 2],
  ])("test.for %s %d", record);
  test.for(["solo"])("test.for with a string $0 %s", record);

  describe.each(["alpha", "beta"])("describe.each %s", () => {
    it("inside", record);
  });
  describe.each([{ kind: "gamma" }])("describe.each $kind", () => {
    it.each([3])("nested each %i", record);
  });
});

it("the extractor names every test above as vitest did", () => {
  const source = readFileSync(fileURLToPath(import.meta.url), "utf8");
  const { tests } = extractTitles(source, "vitest-agreement.test.ts");
  const predicted = tests
    .filter((t) => t.describe[0] === "vitest agreement fixtures")
    .map((t) => [...t.describe, t.title].join(" > "));
  expect(tests.filter((t) => t.modifiers?.includes("each"))).toEqual([]);
  expect(predicted).toEqual(seen);
  expect(seen.length).toBeGreaterThan(25);
});
