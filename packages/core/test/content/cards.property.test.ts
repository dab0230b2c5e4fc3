import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Actions,
  Button,
  Card,
  type CardChild,
  CardLink,
  CardText,
  cardToFallbackText,
  Divider,
  Field,
  Fields,
  LinkButton,
  Section,
  Select,
  SelectOption,
  Table,
} from "../../src/content/index.js";

const word = fc.string({ minLength: 1, maxLength: 12 });
const url = fc.webUrl();

/** Card children built through the builders, so every generated card passed validation. */
function leaf(): fc.Arbitrary<CardChild> {
  return fc.oneof(
    fc
      .record({ content: fc.string(), style: fc.constantFrom("plain", "bold", "muted", undefined) })
      .map(({ content, style }) => CardText(content, style === undefined ? {} : { style })),
    fc.constant(Divider()),
    fc.record({ url, label: word }).map((link) => CardLink(link)),
    fc
      .array(fc.record({ label: word, value: fc.string() }), { maxLength: 4 })
      .map((pairs) => Fields(pairs.map((pair) => Field(pair)))),
    fc
      .integer({ min: 1, max: 4 })
      .chain((width) =>
        fc.record({
          headers: fc.array(word, { minLength: width, maxLength: width }),
          rows: fc.array(fc.array(fc.string(), { minLength: width, maxLength: width }), {
            maxLength: 3,
          }),
        }),
      )
      .map((table) => Table(table)),
  );
}

/** An Actions row whose control ids are made unique by their position in the card. */
function actions(prefix: string): fc.Arbitrary<CardChild> {
  return fc
    .array(fc.constantFrom("button", "link", "select"), { maxLength: 4 })
    .chain((kinds) =>
      fc.tuple(
        fc.constant(kinds),
        fc.array(word, { minLength: kinds.length, maxLength: kinds.length }),
      ),
    )
    .chain(([kinds, labels]) =>
      fc.constant(
        Actions(
          kinds.map((kind, index) => {
            const id = `${prefix}-${index}`;
            const label = labels[index] ?? "x";
            if (kind === "button") return Button({ id, label, value: label });
            if (kind === "link") return LinkButton({ id, url: "https://example.com/", label });
            return Select({ id, label, options: [SelectOption({ label, value: "v" })] });
          }),
        ),
      ),
    );
}

const card = fc
  .array(
    fc.oneof(
      leaf(),
      fc.array(leaf(), { maxLength: 3 }).map((children) => Section(children)),
    ),
    {
      maxLength: 5,
    },
  )
  .chain((children) =>
    fc.record({
      children: fc.constant(children),
      row: actions("a"),
      title: fc.option(word, { nil: undefined }),
      subtitle: fc.option(fc.string(), { nil: undefined }),
    }),
  )
  .map(({ children, row, title, subtitle }) =>
    Card({ title, subtitle, children: [...children, row] }),
  );

describe("cards (property)", () => {
  it("survive a JSON round trip unchanged and rebuild from their own data", () => {
    fc.assert(
      fc.property(card, (built) => {
        const copy = JSON.parse(JSON.stringify(built));
        expect(copy).toStrictEqual(built);
        // Plain data in, the same element out: a stored card can be passed to Card() again.
        expect(Card(copy)).toStrictEqual(built);
      }),
      { numRuns: 200 },
    );
  });

  it("give the same fallback text for equal cards, with every button label in it", () => {
    fc.assert(
      fc.property(card, (built) => {
        const text = cardToFallbackText(built);
        expect(cardToFallbackText(structuredClone(built))).toBe(text);
        const row = built.children.at(-1);
        if (row?.type !== "actions") throw new Error("the generator ends every card with a row");
        for (const control of row.children) {
          if (control.type === "button") expect(text).toContain(`[${control.label}]`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
