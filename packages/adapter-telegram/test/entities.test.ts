import { type Message, parseMarkdown, toPlainText } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { applyTelegramEntities, type TelegramMessageEntity } from "../src/index.js";
import { createTelegramHarness, type TelegramHarness } from "./telegram-harness.js";

const harnesses: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

/** A node of the parsed markdown, by type, depth first. */
function find(node: unknown, type: string): Record<string, unknown> | undefined {
  const record = node as { type?: string; children?: unknown[] };
  if (record.type === type) return record as Record<string, unknown>;
  for (const child of record.children ?? []) {
    const found = find(child, type);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The mdast a Telegram text and its entities become, as a handler reads `message.formatted`. */
function shown(text: string, entities: TelegramMessageEntity[]) {
  return parseMarkdown(applyTelegramEntities(text, entities));
}

describe("inbound entities whose text holds markdown characters", () => {
  it("keeps a text_link label with an unbalanced bracket as one link in the delivered message", async () => {
    const h = await createTelegramHarness();
    harnesses.push(h);
    const messages: Message[] = [];
    h.chat.onDirectMessage((_t, m) => {
      messages.push(m);
    });
    // As a Telegram client sends "[draft *v2" linked to the spec.
    const text = "Read [draft *v2 first";
    await h.deliver(
      h.updates.message(text, {
        entities: [{ type: "text_link", offset: 5, length: 10, url: "https://example.com/spec" }],
      }),
    );
    const [message] = messages;
    expect(message?.text).toBe(text);
    const link = find(message?.formatted, "link");
    expect(link?.url).toBe("https://example.com/spec");
    expect(toPlainText(link as never)).toBe("[draft *v2");
    expect(toPlainText(message?.formatted as never)).toBe(text);
  });

  it("ends a text_link at its own closing parenthesis when the URL holds an unbalanced one", () => {
    const url = "https://example.com/search?q=:)";
    const ast = shown("see fork here", [{ type: "text_link", offset: 4, length: 4, url }]);
    expect(find(ast, "link")?.url).toBe(url);
    expect(toPlainText(ast)).toBe("see fork here");
  });

  it("keeps markdown marks inside bold, italic and strikethrough text literal", () => {
    const text = "2*3*4 and _x_ and ~~y";
    const ast = shown(text, [
      { type: "bold", offset: 0, length: 5 },
      { type: "italic", offset: 10, length: 3 },
      { type: "strikethrough", offset: 18, length: 3 },
    ]);
    expect(toPlainText(find(ast, "strong") as never)).toBe("2*3*4");
    expect(toPlainText(find(ast, "emphasis") as never)).toBe("_x_");
    expect(toPlainText(find(ast, "delete") as never)).toBe("~~y");
    expect(toPlainText(ast)).toBe(text);
  });

  it("keeps bold whose entity covers a trailing space bold", () => {
    const ast = shown("very bold text", [{ type: "bold", offset: 5, length: 5 }]);
    expect(toPlainText(find(ast, "strong") as never)).toBe("bold");
    expect(toPlainText(ast)).toBe("very bold text");
  });

  it("keeps backticks inside code and pre entities as code", () => {
    const inline = shown("type `ls` now", [{ type: "code", offset: 5, length: 4 }]);
    expect(find(inline, "inlineCode")?.value).toBe("`ls`");
    const fence = "```js\nx()\n```";
    const block = shown(fence, [{ type: "pre", offset: 0, length: fence.length }]);
    expect(find(block, "code")?.value).toBe(fence);
  });

  it("puts a pre entity that starts mid-line on lines of its own", () => {
    const ast = shown("Output: 42 done", [{ type: "pre", offset: 8, length: 2 }]);
    expect(find(ast, "code")?.value).toBe("42");
    expect(toPlainText(ast)).toContain("Output:");
    expect(toPlainText(ast)).toContain("done");
  });
});
