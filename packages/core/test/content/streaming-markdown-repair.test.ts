import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StreamingMarkdownRenderer } from "../../src/content/streaming-markdown.js";
import {
  closeOpenMarkdown,
  isMarkdownClosed,
} from "../../src/content/streaming-markdown-repair.js";

describe("closeOpenMarkdown", () => {
  it.each([
    ["Hello **wor", "Hello **wor**"],
    ["Hello *ita", "Hello *ita*"],
    ["Hello __wor", "Hello __wor__"],
    ["Hello ~~str", "Hello ~~str~~"],
    ["Hello `cod", "Hello `cod`"],
    ["**bold *both", "**bold *both***"],
    ["Hello **wor \n", "Hello **wor** \n"],
  ])("closes what %j left open", (input, expected) => {
    expect(closeOpenMarkdown(input)).toBe(expected);
  });

  it("closes an open code fence with a line of the same fence, so nothing after it is code", () => {
    expect(closeOpenMarkdown("Look:\n```ts\nconst a = 1;")).toBe("Look:\n```ts\nconst a = 1;\n```");
    expect(closeOpenMarkdown("~~~~\nx\n")).toBe("~~~~\nx\n~~~~");
    expect(closeOpenMarkdown("```\ncode\n```\nafter **b")).toBe("```\ncode\n```\nafter **b**");
  });

  it("leaves markers inside code alone", () => {
    expect(closeOpenMarkdown("```\n**not bold\n```\n")).toBe("```\n**not bold\n```\n");
    expect(closeOpenMarkdown("use `a * b` here")).toBe("use `a * b` here");
  });

  it("shows a link being written as its text, and an image being written as nothing", () => {
    expect(closeOpenMarkdown("See [the do")).toBe("See the do");
    expect(closeOpenMarkdown("See [the docs](https://exa")).toBe("See the docs");
    expect(closeOpenMarkdown("A ![chart](https://img")).toBe("A ");
    expect(closeOpenMarkdown("See [the docs](https://example.com) now")).toBe(
      "See [the docs](https://example.com) now",
    );
    expect(closeOpenMarkdown("[wiki](https://en.wikipedia.org/wiki/A_(b)")).toBe("wiki");
  });

  it("drops a marker whose text has not arrived and a line that would make a heading", () => {
    expect(closeOpenMarkdown("Hello **")).toBe("Hello ");
    expect(closeOpenMarkdown("Intro\n-")).toBe("Intro\n");
    expect(closeOpenMarkdown("Title\n==")).toBe("Title\n");
    expect(closeOpenMarkdown("Title\n===\n")).toBe("Title\n===\n"); // finished: a real heading
  });

  it("treats snake_case, lone asterisks and closed spans as text", () => {
    for (const text of [
      "snake_case_name",
      "2 * 3 = 6",
      "a **b** c",
      "* item\n* item",
      "x_1 and y_2",
    ]) {
      expect(closeOpenMarkdown(text)).toBe(text);
      expect(isMarkdownClosed(text)).toBe(true);
    }
  });

  it("only looks at the last paragraph: markers never span a blank line", () => {
    expect(closeOpenMarkdown("Hello *a\n\nNext")).toBe("Hello *a\n\nNext");
  });

  it("always returns closed markdown, and closed markdown unchanged (property)", () => {
    const piece = fc.constantFrom(
      "**",
      "*",
      "_",
      "__",
      "~~",
      "`",
      "``",
      "```",
      "[",
      "]",
      "(",
      ")",
      "![",
      "\\",
      " ",
      "\n",
      "\n\n",
      "a",
      "word",
      "| a | b |",
      "|---|---|",
      "-",
      "#",
      ">",
      "https://x.y",
      "~~~",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join("");
        const closed = closeOpenMarkdown(text);
        expect(isMarkdownClosed(closed)).toBe(true);
        expect(closeOpenMarkdown(closed)).toBe(closed);
      }),
      { numRuns: 400 },
    );
  });
});

describe("StreamingMarkdownRenderer beyond upstream's cases", () => {
  const DOCUMENT = [
    "# Plan\n\nFirst **do** this, then *that* with `code`.\n\n",
    "| Step | Owner |\n| --- | --- |\n| one | __me__ |\n| two | ~~you~~ |\n\n",
    "```js\nconst x = a * b; // **not bold**\n```\n\n",
    "See [the guide](https://example.com/a_(b)) and ![img](https://example.com/i.png).\n",
    "- a\n- b\n\nDone.",
  ].join("");

  it("keeps getCommittableText monotonic and render closed for any chunking (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 80 }),
        (sizes) => {
          const r = new StreamingMarkdownRenderer();
          let at = 0;
          let previous = "";
          let index = 0;
          while (at < DOCUMENT.length) {
            const size = sizes[index % sizes.length] as number;
            r.push(DOCUMENT.slice(at, at + size));
            at += size;
            index += 1;
            const committable = r.getCommittableText();
            expect(committable.startsWith(previous)).toBe(true);
            previous = committable;
            expect(isMarkdownClosed(r.render())).toBe(true);
          }
          r.finish();
          expect(r.getCommittableText().startsWith(previous)).toBe(true);
          expect(r.getText()).toBe(DOCUMENT);
        },
      ),
      { numRuns: 150 },
    );
  });
});
