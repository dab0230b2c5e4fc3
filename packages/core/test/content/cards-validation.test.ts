import { describe, expect, it } from "vitest";
import {
  Actions,
  Button,
  Card,
  CardLink,
  Chart,
  Field,
  Fields,
  Image,
  LinkButton,
  resolveCardPost,
  Section,
  Select,
  SelectOption,
  Table,
  Text,
  validateCardElement,
} from "../../src/content/index.js";
import { ValidationError } from "../../src/errors/index.js";

/** Runs `build` and returns the ValidationError it throws (failing when it throws nothing else). */
function validationError(build: () => unknown): ValidationError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error("expected a ValidationError, but nothing was thrown");
}

const option = (value: string) => SelectOption({ label: value.toUpperCase(), value });

describe("card elements are validated where they are built", () => {
  it("refuses a button without an id or with an empty label, naming the field", () => {
    expect(validationError(() => Button({ label: "Go" } as never)).message).toMatch(
      /Button requires an 'id' prop/,
    );
    expect(validationError(() => Button({ id: "go", label: "" })).message).toMatch(
      /Button requires a 'label' prop/,
    );
  });

  it("refuses a style, action type or width outside upstream's sets", () => {
    expect(
      validationError(() => Button({ id: "a", label: "A", style: "big" as never })).message,
    ).toBe(`Button 'style' must be one of "primary", "danger", "default", got "big"`);
    expect(
      validationError(() => Button({ id: "a", label: "A", actionType: "open" as never })).message,
    ).toMatch(/'actionType'/);
    expect(validationError(() => Card({ width: "wide" as never })).message).toMatch(/Card 'width'/);
    expect(validationError(() => Text("x", { style: "italic" as never })).message).toMatch(
      /Text 'style'/,
    );
  });

  it("refuses relative or malformed URLs on images, links and link buttons", () => {
    expect(validationError(() => Image({ url: "/logo.png" })).message).toBe(
      `Image 'url' must be an absolute URL, got "/logo.png"`,
    );
    expect(validationError(() => LinkButton({ url: "docs", label: "Docs" })).message).toMatch(
      /LinkButton 'url' must be an absolute URL/,
    );
    expect(validationError(() => CardLink({ url: "", label: "x" })).message).toMatch(
      /CardLink requires a 'url' prop/,
    );
    expect(validationError(() => Card({ imageUrl: "header.png" })).message).toMatch(
      /Card 'imageUrl'/,
    );
    expect(Image({ url: "https://example.com/logo.png" }).url).toBe("https://example.com/logo.png");
  });

  it("refuses a field without a label or with a non-string value", () => {
    expect(validationError(() => Field({ label: "Status" } as never)).message).toMatch(
      /Field requires 'label' and 'value' props.*'value' is undefined/,
    );
    expect(Field({ label: "Notes", value: "" }).value).toBe("");
  });

  it("refuses a child a container cannot hold, naming its index", () => {
    const button = Button({ id: "b", label: "B" });
    // The JSX-props overload accepts any children, so the type checker cannot catch this one.
    expect(validationError(() => Card({ children: [Text("ok"), button] })).message).toMatch(
      /^Card 'children\[1\]' must be one of .* elements, got a "button" element$/,
    );
    expect(validationError(() => Actions([Text("no")] as never)).message).toMatch(
      /Actions 'children\[0\]'/,
    );
    expect(validationError(() => Fields([Text("no")] as never)).message).toMatch(
      /Fields 'children\[0\]'/,
    );
    expect(validationError(() => Section(["plain string"] as never)).message).toMatch(
      /Section 'children\[0\]' .* got "plain string"/,
    );
  });

  it("refuses two controls with one id anywhere in a card", () => {
    expect(
      validationError(() =>
        Actions([Button({ id: "ok", label: "OK" }), Button({ id: "ok", label: "Also OK" })]),
      ).message,
    ).toMatch(/Actions has two controls with the id "ok"/);
    const first = Actions([Button({ id: "approve", label: "Approve" })]);
    const second = Section([
      Actions([Select({ id: "approve", label: "Who", options: [option("a")] })]),
    ]);
    expect(validationError(() => Card({ children: [first, second] })).message).toMatch(
      /Card has two controls with the id "approve"/,
    );
  });

  it("refuses a table row whose width differs from the headers", () => {
    expect(
      validationError(() => Table({ headers: ["Name", "Role"], rows: [["Ada", "Eng"], ["Bob"]] }))
        .message,
    ).toBe("Table 'rows[1]' has 1 cells but 'headers' has 2");
    expect(validationError(() => Table({ headers: [], rows: [] })).message).toBe(
      "Table 'headers' must not be empty",
    );
    expect(validationError(() => Table({ headers: ["n"], rows: [[1 as never]] })).message).toBe(
      "Table 'rows[0][0]' must be a string, got 1",
    );
    expect(validationError(() => Table({ headers: ["a"], rows: [], pageSize: 0 })).message).toMatch(
      /'pageSize' must be at least 1/,
    );
    expect(
      validationError(() => Table({ headers: ["a", "b"], rows: [], align: [undefined as never] }))
        .message,
    ).toBe("Table 'align[0]' is missing");
    expect(
      validationError(() => Table({ headers: ["a", "b"], rows: [], widths: [1] })).message,
    ).toMatch(/'widths' has 1 entries for 2 columns/);
  });

  it("refuses selects with duplicate values or an initial option that is not among them", () => {
    expect(
      validationError(() => Select({ id: "s", label: "S", options: [option("a"), option("a")] }))
        .message,
    ).toMatch(/Select 'options\[1\]\.value' "a" is used by an earlier option/);
    expect(
      validationError(() =>
        Select({ id: "s", label: "S", options: [option("a")], initialOption: "b" }),
      ).message,
    ).toMatch(/Select 'initialOption' "b" is not the value of any of its options/);
    expect(validationError(() => SelectOption({ label: "Empty", value: "" })).message).toMatch(
      /SelectOption requires a 'value' prop/,
    );
  });

  it("checks a chart's shape but leaves platform limits to the adapters", () => {
    expect(
      validationError(() =>
        Chart({
          title: "T",
          chart: { type: "pie", segments: [{ label: "a", value: Number.NaN }] },
        }),
      ).message,
    ).toMatch(/Chart 'chart\.segments\[0\]\.value' must be a finite number/);
    expect(
      validationError(() => Chart({ title: "T", chart: { type: "radar" } as never })).message,
    ).toMatch(/Chart 'chart\.type'/);
    // Slack would refuse a non-positive slice; the Slack adapter falls back to text for it.
    const chart = Chart({
      title: "T",
      chart: { type: "pie", segments: [{ label: "a", value: -1 }] },
    });
    expect(chart.chart.type).toBe("pie");
  });

  it("builds plain data that survives a JSON round trip unchanged", () => {
    const card = Card({
      title: "Order",
      children: [
        Text("Ready", { style: "bold" }),
        Fields([Field({ label: "Total", value: "$5" })]),
        Table({ headers: ["a"], rows: [["1"]] }),
        Actions([
          Button({ id: "ok", label: "OK", value: "1", visibleTo: ["U1"] }),
          Select({ id: "pick", label: "Pick", options: [option("x")], initialOption: "x" }),
        ]),
      ],
    });
    expect(JSON.parse(JSON.stringify(card))).toStrictEqual(card);
    expect(Object.values(Button({ id: "b", label: "B" }))).not.toContain(undefined);
  });

  it("copies the caller's arrays, so later changes do not alter a built element", () => {
    const visibleTo = ["U1"];
    const button = Button({ id: "b", label: "B", visibleTo });
    visibleTo.push("U2");
    expect(button.visibleTo).toEqual(["U1"]);
    const segments = [{ label: "a", value: 1 }];
    const chart = Chart({ title: "T", chart: { type: "pie", segments } });
    segments.push({ label: "b", value: 2 });
    expect(chart.chart).toEqual({ type: "pie", segments: [{ label: "a", value: 1 }] });
  });
});

describe("cards written as plain data", () => {
  it("are held to the builders' rules, element by element", () => {
    const literal = {
      type: "card",
      title: "Literal",
      children: [
        { type: "text", content: "Hi" },
        {
          type: "section",
          children: [{ type: "actions", children: [{ type: "button", id: "ok" }] }],
        },
      ],
    };
    expect(validationError(() => validateCardElement(literal)).message).toMatch(
      /Button requires a 'label' prop/,
    );
    expect(
      validationError(() =>
        validateCardElement({
          type: "card",
          children: [{ type: "fields", children: [{ type: "text", content: "x" }] }],
        }),
      ).message,
    ).toMatch(/Fields 'children\[0\]' .* got a "text" element/);
    expect(validationError(() => validateCardElement({ type: "carousel" })).message).toMatch(
      /a card must be an object with type "card"/,
    );
  });

  it("come back equal when valid, so JSON read back from storage can be checked and posted", () => {
    const built = Card({
      title: "Stored",
      children: [
        Text("body"),
        Section([Image({ url: "https://example.com/a.png" })]),
        Fields([Field({ label: "a", value: "b" })]),
        Table({ headers: ["h"], rows: [["c"]] }),
        Actions([
          Button({ id: "go", label: "Go" }),
          LinkButton({ url: "https://example.com", label: "Docs" }),
        ]),
      ],
    });
    expect(validateCardElement(JSON.parse(JSON.stringify(built)))).toStrictEqual(built);
  });

  it("are checked when posted, with the same errors as built ones", () => {
    const literal = { type: "card", children: [{ type: "image", url: "relative.png" }] };
    expect(() => resolveCardPost(literal as never)).toThrow("Image 'url' must be an absolute URL");
    expect(() => resolveCardPost({ card: literal } as never)).toThrow(
      "Image 'url' must be an absolute URL",
    );
  });
});
