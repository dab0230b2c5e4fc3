import type { Message } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { decodeHtmlEntities, markdownToTeamsHtml, teamsHtmlToMarkdown } from "../src/index.js";
import { trackHarnesses } from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

describe("decodeHtmlEntities on references to no character", () => {
  it("decodes a numeric reference above U+10FFFF to U+FFFD instead of throwing", () => {
    expect(() => decodeHtmlEntities("&#99999999;")).not.toThrow();
    expect(decodeHtmlEntities("a&#99999999;b")).toBe("a\uFFFDb");
    expect(decodeHtmlEntities("&#x110000;")).toBe("\uFFFD");
    expect(decodeHtmlEntities("&#x7FFFFFFFFFFFFFFFF;")).toBe("\uFFFD");
  });

  it("decodes surrogates and NUL to U+FFFD", () => {
    expect(decodeHtmlEntities("&#xD800;&#57343;&#0;")).toBe("\uFFFD\uFFFD\uFFFD");
  });

  it("still decodes valid references", () => {
    expect(decodeHtmlEntities("&#x1F600; &#39; &amp; &lt;b&gt; &#x10FFFF;")).toBe(
      "😀 ' & <b> \u{10FFFF}",
    );
  });

  it("reads a Teams HTML message with an out-of-range reference as text", () => {
    expect(teamsHtmlToMarkdown("<p>price &#99999999; <b>now</b></p>")).toBe("price \uFFFD **now**");
  });

  it("delivers an inbound message whose text carries an out-of-range reference", async () => {
    const h = await harnesses.open();
    const seen: Message[] = [];
    h.chat.onNewMessage(/.*/, async (_thread, message) => {
      seen.push(message);
    });
    const response = await h.deliver(
      h.message("<p>hello &#99999999; there</p>", { textFormat: "xml" }),
    );
    expect(response.status).toBe(200);
    expect(seen.map((message) => message.text)).toEqual(["hello \uFFFD there"]);
  });
});

describe("markdownToTeamsHtml renders the markdown tree", () => {
  it("keeps markdown marks inside a code span as text", () => {
    expect(markdownToTeamsHtml("run `**not bold**` and `_not italic_` now")).toBe(
      "run <code>**not bold**</code> and <code>_not italic_</code> now",
    );
  });

  it("keeps a fenced code block's text as written, escaped", () => {
    expect(markdownToTeamsHtml("```\n**x** <b>y</b>\n```")).toBe(
      "<pre><code>**x** &lt;b&gt;y&lt;/b&gt;</code></pre>",
    );
  });

  it("renders bold, italic, strike and nested marks", () => {
    expect(markdownToTeamsHtml("**bold _both_** ~~gone~~ _it_")).toBe(
      "<strong>bold <em>both</em></strong> <s>gone</s> <em>it</em>",
    );
  });

  it("escapes text, raw HTML and link targets", () => {
    expect(markdownToTeamsHtml('a <script>x</script> & [q](https://e.com/?a="b")')).toBe(
      'a &lt;script&gt;x&lt;/script&gt; &amp; <a href="https://e.com/?a=&quot;b&quot;">q</a>',
    );
  });

  it("renders lists and paragraphs", () => {
    expect(markdownToTeamsHtml("intro\n\n- one\n- **two**")).toBe(
      "intro\n\n<ul><li>one</li><li><strong>two</strong></li></ul>",
    );
  });
});
