import { describe, expect, it } from "vitest";
import { extractTitles } from "../src/extract-titles.js";

const titles = (source: string) => extractTitles(source).tests;

describe("extractTitles", () => {
  it("records nested describes as the describe path, outermost first", () => {
    const source = `
      describe("Chat", () => {
        it("top", () => {});
        describe("message deduplication", () => {
          describe("deeper", () => {
            test("inner", async () => {});
          });
        });
        it("after", () => {});
      });
      it("outside", () => {});`;
    expect(titles(source)).toEqual([
      { describe: ["Chat"], title: "top" },
      { describe: ["Chat", "message deduplication", "deeper"], title: "inner" },
      { describe: ["Chat"], title: "after" },
      { describe: [], title: "outside" },
    ]);
  });

  it("reads template literals without substitutions and concatenated literals", () => {
    const source =
      "describe(`block`, () => { it(`template`, () => {}); it('a' + \"b\", () => {}); });";
    expect(titles(source)).toEqual([
      { describe: ["block"], title: "template" },
      { describe: ["block"], title: "ab" },
    ]);
  });

  it("expands it.each over literal arrays with %s, %i and %d as vitest does", () => {
    const source = `
      it.each([
        ["jane@bot.com", "an email"],
        ["@botty", "a longer handle"],
      ])("should not treat %s as a mention (%s)", (text) => {});
      it.each([[1.5, 2], [3, 4]])("%i plus %d", () => {});`;
    expect(titles(source).map((t) => t.title)).toEqual([
      "should not treat jane@bot.com as a mention (an email)",
      "should not treat @botty as a mention (a longer handle)",
      "1 plus 2",
      "3 plus 4",
    ]);
  });

  it("expands $name from objects, quoting strings as vitest does", () => {
    const source = `
      it.each([
        { failure: "timeout", code: "STATE_TIMEOUT" },
        { failure: "unavailable", code: 503 },
      ] as const)("maps failure $failure to code $code", () => {});`;
    expect(titles(source).map((t) => t.title)).toEqual([
      "maps failure 'timeout' to code 'STATE_TIMEOUT'",
      "maps failure 'unavailable' to code 503",
    ]);
  });

  it("expands a tagged-template table", () => {
    const source = `
      it.each\`
        a    | b    | expected
        \${1} | \${1} | \${2}
        \${2} | \${"x"} | \${"2x"}
      \`("returns $expected for $a and $b", () => {});`;
    expect(titles(source).map((t) => t.title)).toEqual([
      "returns 2 for 1 and 1",
      "returns '2x' for 2 and 'x'",
    ]);
  });

  it("expands test.each, test.for and cases declared as a const in the same file", () => {
    const source = `
      const CASES = [["a", 1], ["b", 2]] as const;
      test.each(CASES)("each %s %i", () => {});
      test.for(["x"])("for %s", () => {});`;
    expect(titles(source).map((t) => t.title)).toEqual(["each a 1", "each b 2", "for x"]);
  });

  it("expands describe.each into one describe block per case", () => {
    const source = `
      describe.each(["memory", "redis"])("%s backend", () => {
        it("stores a value", () => {});
      });`;
    expect(titles(source)).toEqual([
      { describe: ["memory backend"], title: "stores a value" },
      { describe: ["redis backend"], title: "stores a value" },
    ]);
  });

  it("keeps the template and marks it each when the cases are not literals", () => {
    const source = `
      import { cases } from "./cases";
      it.each(cases)("should still detect %s as a mention (%s)", () => {});
      it.each([{ value: makeValue() }])("uses $value", () => {});
      describe.each(loadBackends())("on %s", () => { it("works", () => {}); });`;
    expect(titles(source)).toEqual([
      { describe: [], title: "should still detect %s as a mention (%s)", modifiers: ["each"] },
      { describe: [], title: "uses $value", modifiers: ["each"] },
      { describe: ["on %s"], title: "works", modifiers: ["each"] },
    ]);
  });

  it("notes skip, only, todo and skipIf, and passes a describe's on to its tests", () => {
    const source = `
      it.skip("skipped", () => {});
      it.only("focused", () => {});
      it.todo("later");
      it.skipIf(process.env.CI)("conditional", () => {});
      it.concurrent.each([1])("concurrent %i", () => {});
      describe.skip("integration tests (require Redis)", () => {
        it("should connect to Redis", async () => {});
      });`;
    expect(titles(source)).toEqual([
      { describe: [], title: "skipped", modifiers: ["skip"] },
      { describe: [], title: "focused", modifiers: ["only"] },
      { describe: [], title: "later", modifiers: ["todo"] },
      { describe: [], title: "conditional", modifiers: ["skipIf"] },
      { describe: [], title: "concurrent 1", modifiers: ["concurrent"] },
      {
        describe: ["integration tests (require Redis)"],
        title: "should connect to Redis",
        modifiers: ["skip"],
      },
    ]);
  });

  it("reads the property names of defineCases as titles under their group", () => {
    const source = `
      export const lockCases = defineCases("locks", {
        "should acquire a lock": async ({ state }) => {},
        plainName: async () => {},
        ["computed " + "name"]: async () => {},
        async "a method case"() {},
      });
      export const other = defineCases(
        "lifecycle",
        { "should throw when not connected": async () => {} },
        { startsDisconnected: true },
      );`;
    expect(titles(source)).toEqual([
      { describe: ["locks"], title: "should acquire a lock" },
      { describe: ["locks"], title: "plainName" },
      { describe: ["locks"], title: "computed name" },
      { describe: ["locks"], title: "a method case" },
      { describe: ["lifecycle"], title: "should throw when not connected" },
    ]);
  });

  it("lists titles computed at run time as unresolved, with their line", () => {
    const source = [
      'describe("invariants", () => {',
      "  for (const strategy of strategies) {",
      "    it(`${strategy}: never overlaps`, () => {});",
      "  }",
      "});",
    ].join("\n");
    expect(extractTitles(source)).toEqual({
      tests: [],
      unresolved: [{ describe: ["invariants"], source: "`${strategy}: never overlaps`", line: 3 }],
    });
  });

  it("ignores look-alikes: other roots, it.each without a call, and unknown members", () => {
    const source = `
      bench("fast", () => {});
      myTest("custom", () => {});
      const t = it.each;
      it.extend({})("extended", () => {});
      expect(describe).toBeDefined();`;
    expect(extractTitles(source)).toEqual({ tests: [], unresolved: [] });
  });

  it("parses TSX sources", () => {
    const source = 'it("renders <Card>", () => { const x = <Card title="t" />; });';
    expect(extractTitles(source, "cards.test.tsx").tests).toEqual([
      { describe: [], title: "renders <Card>" },
    ]);
  });
});
