/** `message.formatted`: the mdast tree every message carries, and its JSON round trip. */
import { describe, expect, it } from "vitest";
import {
  paragraph,
  parseMarkdown,
  root,
  strong,
  text,
  toPlainText,
} from "../../src/content/index.js";
import { ValidationError } from "../../src/errors/index.js";
import { Message, type MessageInit, type SerializedMessage } from "../../src/model/index.js";

function init(overrides: Partial<MessageInit> = {}): MessageInit {
  return {
    id: "m1",
    threadId: "mock:C1:T1",
    text: "**bold** and _italic_",
    author: { userId: "U1", userName: "ada", fullName: "Ada", isBot: false, isMe: false },
    metadata: { dateSent: new Date("2026-01-01T00:00:00.000Z"), edited: false },
    ...overrides,
  };
}

describe("Message.formatted", () => {
  it("is the text parsed as markdown when the adapter gives no tree", () => {
    const message = new Message(init());
    expect(message.formatted).toEqual(parseMarkdown("**bold** and _italic_"));
    expect(toPlainText(message.formatted)).toBe("bold and italic");
  });

  it("is the adapter's tree when one is given, not a parse of the text", () => {
    const formatted = root([paragraph([strong([text("from the platform")])])]);
    const message = new Message(init({ text: "from the platform", formatted }));
    expect(message.formatted).toBe(formatted);
  });

  it("is parsed once: every read returns the same tree", () => {
    const message = new Message(init());
    expect(message.formatted).toBe(message.formatted);
  });

  it("survives toJSON and fromJSON", () => {
    const formatted = root([paragraph([strong([text("platform tree")])])]);
    const original = new Message(init({ formatted }));
    const json = JSON.parse(JSON.stringify(original)) as SerializedMessage;
    expect(json.formatted).toEqual(formatted);
    const restored = Message.fromJSON(json);
    expect(restored.formatted).toEqual(formatted);
    expect(restored.toJSON()).toEqual(original.toJSON());
  });

  it("is rebuilt from the text when the JSON has none (older entries)", () => {
    const { formatted: _dropped, ...json } = new Message(init()).toJSON();
    expect(Message.fromJSON(json).formatted).toEqual(parseMarkdown("**bold** and _italic_"));
  });

  it("refuses JSON whose formatted is not an mdast root, naming the field", () => {
    const json = { ...new Message(init()).toJSON(), formatted: { type: "paragraph" } };
    expect(() => Message.fromJSON(json as unknown as SerializedMessage)).toThrow(ValidationError);
    expect(() => Message.fromJSON(json as unknown as SerializedMessage)).toThrow(/formatted/);
  });
});
