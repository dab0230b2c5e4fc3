/** Baton's JSX beyond upstream's cases: fragments, the bot's own components, conditionals. */
import { describe, expect, it } from "vitest";
import {
  Actions,
  Button,
  Card,
  type CardChild,
  Divider,
  fromReactElement,
  Image,
  isCardPost,
  Modal,
  resolveCardPost,
  Select,
  SelectOption,
  Text,
  TextInput,
  toCardElement,
  toModalElement,
} from "../../src/content/index.js";
import { jsxDEV } from "../../src/content/jsx/jsx-dev-runtime.js";
import { jsxs } from "../../src/content/jsx/jsx-runtime.js";

function Approval(props: { requestId: string; children?: unknown }) {
  return (
    <>
      <Text>{props.children as string}</Text>
      <Actions>
        <Button id={`approve:${props.requestId}`} style="primary">
          Approve
        </Button>
        <Button id={`reject:${props.requestId}`} style="danger">
          Reject
        </Button>
      </Actions>
    </>
  );
}

describe("JSX trees with fragments, components and conditionals", () => {
  it("flattens fragments into their parent", () => {
    const card = toCardElement(
      <Card title="Fragments">
        <>
          <Text>One</Text>
          <Text>Two</Text>
        </>
        <Divider />
      </Card>,
    );
    expect(card?.children.map((child) => child.type)).toEqual(["text", "text", "divider"]);
  });

  it("calls the bot's own function components with their props and children", () => {
    const card = toCardElement(
      <Card title="Expense #7">
        <Approval requestId="7">Approve $120 for travel?</Approval>
      </Card>,
    );
    expect(card?.children).toEqual([
      { type: "text", content: "Approve $120 for travel?" },
      {
        type: "actions",
        children: [
          { type: "button", id: "approve:7", label: "Approve", style: "primary" },
          { type: "button", id: "reject:7", label: "Reject", style: "danger" },
        ],
      },
    ]);
  });

  it("drops false, null and undefined children, so conditionals read naturally", () => {
    const urgent = false as boolean;
    const note: string | undefined = undefined;
    const card = toCardElement(
      <Card title="Status">
        {urgent && <Text style="bold">Urgent</Text>}
        {note === undefined ? null : <Text>{note}</Text>}
        <Text>Count: {3}</Text>
        {[1, 2].map((n) => (
          <Text key={n}>Item {n}</Text>
        ))}
      </Card>,
    );
    expect(card?.children).toEqual<CardChild[]>([
      { type: "text", content: "Count: 3" },
      { type: "text", content: "Item 1" },
      { type: "text", content: "Item 2" },
    ]);
  });

  it("builds a modal with inputs and a select from JSX", () => {
    const modal = toModalElement(
      <Modal callbackId="feedback" submitLabel="Send" title="Feedback">
        <TextInput id="comment" label="Comment" multiline />
        <Select id="mood" initialOption="ok" label="Mood">
          <SelectOption label="Good" value="good" />
          <SelectOption label="OK" value="ok" />
        </Select>
      </Modal>,
    );
    expect(modal).toEqual({
      type: "modal",
      callbackId: "feedback",
      title: "Feedback",
      submitLabel: "Send",
      children: [
        { type: "text_input", id: "comment", label: "Comment", multiline: true },
        {
          type: "select",
          id: "mood",
          label: "Mood",
          initialOption: "ok",
          options: [
            { label: "Good", value: "good" },
            { label: "OK", value: "ok" },
          ],
        },
      ],
    });
  });

  it("validates JSX when it is resolved, naming the bad field", () => {
    const duplicate = (
      <Card>
        <Actions>
          <Button id="go">Go</Button>
          <Button id="go">Go again</Button>
        </Actions>
      </Card>
    );
    expect(() => toCardElement(duplicate)).toThrow(/two controls with the id "go"/);
    expect(() => toCardElement(<Card>plain text is not a card child</Card>)).toThrow(
      /Card 'children\[0\]' must be one of/,
    );
    expect(() =>
      toModalElement(
        <Modal callbackId="m" title="M">
          <Actions />
        </Modal>,
      ),
    ).toThrow(/Modal 'children\[0\]' .* got a "actions" element/);
  });

  it("flattens React fragments when converting React elements", () => {
    const react = (type: unknown, props: Record<string, unknown>) => ({
      $$typeof: Symbol.for("react.transitional.element"),
      type,
      props,
    });
    const card = fromReactElement(
      react(Card, {
        children: react(Symbol.for("react.fragment"), {
          children: [react(Text, { children: "one" }), react(Text, { children: "two" })],
        }),
      }),
    );
    expect(card).toEqual({
      type: "card",
      children: [
        { type: "text", content: "one" },
        { type: "text", content: "two" },
      ],
    });
  });

  it("keeps static children lists flat in the development runtime", () => {
    const element = jsxDEV(Card, { children: [<Text>a</Text>, <Text>b</Text>] }, undefined, true);
    expect(element.children).toHaveLength(2);
    expect(element).toEqual(jsxs(Card, { children: [<Text>a</Text>, <Text>b</Text>] }));
  });
});

describe("JSX card posts", () => {
  it("recognizes a <Card> tree without resolving it, and validates it when resolved", () => {
    let renders = 0;
    function Counted() {
      renders += 1;
      return <Text>counted</Text>;
    }
    const tree = (
      <Card title="Once">
        <Counted />
      </Card>
    );
    expect(isCardPost(tree)).toBe(true);
    expect(renders).toBe(0);
    expect(resolveCardPost(tree).fallbackText).toBe("**Once**\ncounted");
    expect(renders).toBe(1);

    const broken = (
      <Card>
        <Image url="relative.png" />
      </Card>
    );
    expect(isCardPost(broken)).toBe(true);
    expect(() => resolveCardPost(broken)).toThrow("Image 'url' must be an absolute URL");
  });

  it("resolves the bot's own component to learn whether it renders a card", () => {
    const Receipt = () => <Card title="Receipt" />;
    const Note = () => <Text>not a card</Text>;
    expect(isCardPost(<Receipt />)).toBe(true);
    expect(isCardPost(<Note />)).toBe(false);
  });
});
