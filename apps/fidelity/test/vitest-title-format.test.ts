import { describe, expect, it } from "vitest";
import {
  formatEachTitle,
  hasPlaceholders,
  placeholderPattern,
} from "../src/vitest-title-format.js";

describe("formatEachTitle", () => {
  it("cuts a $name string longer than 40 characters with an ellipsis, as objDisplay does", () => {
    const exact = "x".repeat(38);
    expect(formatEachTitle("$0", [exact], 0)).toBe(`'${exact}'`);
    expect(formatEachTitle("$0", ["y".repeat(39)], 0)).toBe(`'${"y".repeat(37)}…'`);
  });

  it("shows arrays and objects through $name and %s like vitest", () => {
    expect(formatEachTitle("$list", [{ list: [1, "a"] }], 0)).toBe("[ 1, 'a' ]");
    expect(formatEachTitle("%s", [{ "a-b": { c: null } }], 0)).toBe("{ 'a-b': { c: null } }");
    expect(formatEachTitle("%s", [[1, "x"]], 0)).toBe("1,x");
  });

  it("gives up, returning undefined, where vitest's shortening is not reproduced", () => {
    const long = { list: Array.from({ length: 20 }, (_, i) => i) };
    expect(formatEachTitle("$list", [long], 0)).toBeUndefined();
  });

  it("leaves $name alone when the case is not an object", () => {
    expect(formatEachTitle("$name %s", ["value"], 0)).toBe("$name value");
  });
});

describe("placeholderPattern", () => {
  it("matches every title an each template can produce, and nothing else", () => {
    const pattern = placeholderPattern("should not treat %s as a mention (%s)");
    expect(pattern.test("should not treat jane@bot.com as a mention (an email)")).toBe(true);
    expect(pattern.test("should not treat x as a mention")).toBe(false);
    expect(placeholderPattern("via $label.").test("via 'a.b'.")).toBe(true);
    expect(placeholderPattern("100%% of %i").test("100% of 3")).toBe(true);
  });

  it("tells templates from plain titles", () => {
    expect(hasPlaceholders("should map %s to %s")).toBe(true);
    expect(hasPlaceholders("posts $type attachments")).toBe(true);
    expect(hasPlaceholders("a 50% share costs $ 5")).toBe(false);
  });
});
