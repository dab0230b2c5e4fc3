import { describe, expect, it } from "vitest";
import { StreamingMarkdownRenderer } from "../../src/content/streaming-markdown.js";
import { closeOpenMarkdown } from "../../src/content/streaming-markdown-repair.js";

// Upstream checks its output with `remend`, the repair it uses; Baton's repair is
// `closeOpenMarkdown`, so it is the oracle here: "remend would not change it" reads "Baton's
// repair would not add anything".
const repair = closeOpenMarkdown;

const CODE_FENCE_SPLIT_RE = /```|~~~/;
const TABLE_PIPE_RE = /^\|.*\|$/;

/** The author's code fences, as upstream's test reads them: a toggle per ``` or ~~~ line. */
function isInsideCodeFence(text: string): boolean {
  let inside = false;
  for (const line of text.split("\n")) {
    const trimmed = line.trimStart();
    if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) inside = !inside;
  }
  return inside;
}

/**
 * Streams `chunks` append-only, as a platform with native append streaming does: after each
 * chunk, append what `getCommittableText()` added; after `finish()`, the rest.
 */
function simulateAppendStream(
  chunks: string[],
  options?: ConstructorParameters<typeof StreamingMarkdownRenderer>[0],
): { appendedText: string; finalText: string; deltas: string[] } {
  const r = new StreamingMarkdownRenderer(options);
  let lastAppended = "";
  const deltas: string[] = [];
  for (const chunk of chunks) {
    r.push(chunk);
    const committable = r.getCommittableText();
    const delta = committable.slice(lastAppended.length);
    if (delta.length > 0) {
      deltas.push(delta);
      lastAppended = committable;
    }
  }
  r.finish();
  const finalDelta = r.getCommittableText().slice(lastAppended.length);
  if (finalDelta.length > 0) deltas.push(finalDelta);
  return { appendedText: deltas.join(""), finalText: r.getText(), deltas };
}

describe("StreamingMarkdownRenderer", () => {
  it("should accumulate basic text", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello");
    r.push(" World");
    expect(r.render()).toBe("Hello World");
  });

  it("should heal inline markers with remend", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello **wor");
    const result = r.render();
    expect((result.match(/\*\*/g) || []).length % 2).toBe(0);
    expect(result).toContain("Hello **wor");
    expect(result).toBe("Hello **wor**");
  });

  it("should hold back trailing table header lines", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |\n");
    const result = r.render();
    expect(result).not.toContain("| A | B |");
    expect(result).toContain("Text");
  });

  it("should confirm table when separator arrives", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |\n");
    expect(r.render()).not.toContain("| A | B |");
    r.push("|---|---|\n");
    const result = r.render();
    expect(result).toContain("| A | B |");
    expect(result).toContain("|---|---|");
  });

  it("should release held lines when next line is not a table row", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |\n");
    expect(r.render()).not.toContain("| A | B |");
    r.push("Not a table\n");
    const result = r.render();
    expect(result).toContain("| A | B |");
    expect(result).toContain("Not a table");
  });

  it("should not hold back pipe lines inside code fences", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("```\n| A |\n");
    expect(r.render()).toContain("| A |");
  });

  it("should flush held lines on finish()", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |\n");
    expect(r.render()).not.toContain("| A | B |");
    expect(r.finish()).toContain("| A | B |");
  });

  it("should be idempotent when no push between renders", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello **wor");
    expect(r.render()).toBe(r.render());
  });

  it("should return raw text from getText() without remend", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello **wor");
    r.render();
    expect(r.getText()).toBe("Hello **wor");
  });

  it("should handle table with data rows after separator", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("| A | B |\n|---|---|\n| 1 | 2 |\n");
    const result = r.render();
    expect(result).toContain("| A | B |");
    expect(result).toContain("|---|---|");
    expect(result).toContain("| 1 | 2 |");
  });

  it("should handle multiple consecutive table rows held back", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Intro\n\n| A | B |\n| C | D |\n");
    const result = r.render();
    expect(result).not.toContain("| A | B |");
    expect(result).not.toContain("| C | D |");
  });

  it("should not buffer lines that don't match table pattern", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Just normal text\n");
    expect(r.render()).toContain("Just normal text");
  });

  it("should handle code fence with tilde syntax", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("~~~\n| A |\n");
    expect(r.render()).toContain("| A |");
  });

  it("should resume buffering after code fence closes", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("```\n| inside |\n```\n| A | B |\n");
    const result = r.render();
    expect(result).toContain("| inside |");
    expect(result).not.toContain("| A | B |");
  });

  it("should handle empty input", () => {
    const r = new StreamingMarkdownRenderer();
    expect(r.render()).toBe("");
    expect(r.getText()).toBe("");
    expect(r.finish()).toBe("");
  });

  it("should handle text with no trailing newline", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello world");
    expect(r.render()).toBe("Hello world");
  });

  it("should handle table header without trailing newline (incomplete line)", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |");
    expect(r.render()).toContain("Text");
  });

  it("should still work after push() following finish()", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello");
    r.finish();
    r.push(" World");
    expect(r.render()).toContain("Hello World");
  });

  it("should be idempotent for render() after finish()", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |\n");
    r.finish();
    const first = r.render();
    expect(r.render()).toBe(first);
    expect(first).toContain("| A | B |");
  });

  it("should handle finish() with no held lines", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Just plain text\n");
    expect(r.render()).toContain("Just plain text");
    expect(r.finish()).toContain("Just plain text");
  });

  it("should handle table header split across chunks", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A");
    expect(r.render()).toContain("Text");
    r.push(" | B |\n");
    expect(r.render()).not.toContain("| A | B |");
    r.push("|---|---|\n");
    expect(r.render()).toContain("| A | B |");
  });

  it("should break held block at empty line", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("| A | B |\n\n| C | D |\n");
    const result = r.render();
    expect(result).toContain("| A | B |");
    expect(result).not.toContain("| C | D |");
  });

  it("should hold table at very start of text (no preceding content)", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("| A | B |\n");
    expect(r.render()).not.toContain("| A | B |");
  });

  it("should hold second table after confirmed first table", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("| A | B |\n|---|---|\n| 1 | 2 |\n");
    expect(r.render()).toContain("|---|---|");
    r.push("\n| X | Y |\n");
    const result = r.render();
    expect(result).toContain("| A | B |");
    expect(result).toContain("| 1 | 2 |");
    expect(result).not.toContain("| X | Y |");
  });

  it("should handle held → released → new hold sequence", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("| A | B |\n");
    expect(r.render()).not.toContain("| A | B |");
    r.push("Normal text\n");
    expect(r.render()).toContain("| A | B |");
    expect(r.render()).toContain("Normal text");
    r.push("| X | Y |\n");
    const result = r.render();
    expect(result).toContain("| A | B |");
    expect(result).toContain("Normal text");
    expect(result).not.toContain("| X | Y |");
  });

  it("should confirm table with alignment markers in separator", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("| Left | Center | Right |\n");
    expect(r.render()).not.toContain("| Left |");
    r.push("|:---|:---:|---:|\n");
    const result = r.render();
    expect(result).toContain("| Left | Center | Right |");
    expect(result).toContain("|:---|:---:|---:|");
  });

  it("should not hold data rows after confirmed separator", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("| A | B |\n|---|---|\n");
    expect(r.render()).toContain("|---|---|");
    r.push("| 1 | 2 |\n");
    expect(r.render()).toContain("| 1 | 2 |");
  });

  it("should handle multiple push() calls before single render()", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("| A ");
    r.push("| B |\n");
    r.push("|---|---|\n");
    r.push("| 1 | 2 |\n");
    const result = r.render();
    expect(result).toContain("| A | B |");
    expect(result).toContain("|---|---|");
    expect(result).toContain("| 1 | 2 |");
  });

  it("should render real-world table with single-dash separators progressively", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Here's a table with 20 rows of sample data:\n\n");
    expect(r.render()).toContain("Here's a table");
    r.push("| ID | Name | Department | Age | Salary | City | Join Date | Status |\n");
    let result = r.render();
    expect(result).not.toContain("| ID |");
    expect(result).toContain("Here's a table");
    r.push("| - | - | - | - | - | - | - | - |\n");
    result = r.render();
    expect(result).toContain("| ID |");
    expect(result).toContain("| - |");
    r.push("| 1 | Sarah Johnson | Engineering | 32 | $95,000 | Seattle | 2019-03-15 | Active |\n");
    expect(r.render()).toContain("Sarah Johnson");
    r.push("| 2 | Michael");
    expect(r.render()).toContain("Sarah Johnson");
    r.push(" Chen | Marketing | 28 | $72,000 | Austin | 2020-07-22 | Active |\n");
    expect(r.render()).toContain("Michael Chen");
  });

  it("getCommittableText should hold back incomplete line with unclosed bold", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello **wor");
    expect(r.getCommittableText()).toBe("");
  });

  it("getCommittableText should hold back unclosed bold on complete line", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello **wor\n");
    const committable = r.getCommittableText();
    expect(committable).toBe("Hello ");
    expect(committable).not.toContain("**");
  });

  it("getCommittableText should release when bold closes", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello **wor");
    expect(r.getCommittableText()).toBe("");
    r.push("ld** done\n");
    expect(r.getCommittableText()).toBe("Hello **world** done\n");
  });

  it("getCommittableText should hold back unclosed italic", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello *ita\n");
    expect(r.getCommittableText()).toBe("Hello ");
  });

  it("getCommittableText should hold back unclosed strikethrough", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello ~~str\n");
    expect(r.getCommittableText()).toBe("Hello ");
  });

  it("getCommittableText should hold back unclosed inline code", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello `cod\n");
    expect(r.getCommittableText()).toBe("Hello ");
  });

  it("getCommittableText should hold back unclosed link", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("See [link text\n");
    expect(r.getCommittableText()).toBe("See ");
  });

  it("getCommittableText should release when link closes", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("See [link text\n");
    expect(r.getCommittableText()).toBe("See ");
    r.push("](https://example.com)\n");
    expect(r.getCommittableText()).toContain("See ");
  });

  it("getCommittableText should return clean text when all markers balanced", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello **world** and *italic* done\n");
    expect(r.getCommittableText()).toBe("Hello **world** and *italic* done\n");
  });

  it("getCommittableText should hold back table rows", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |\n");
    const committable = r.getCommittableText();
    expect(committable).not.toContain("| A | B |");
    expect(committable).toContain("Text");
  });

  it("getCommittableText should wrap confirmed table in code fence", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |\n|---|---|\n| 1 | 2 |\n");
    const committable = r.getCommittableText();
    expect(committable).toContain("```");
    expect(committable).toContain("| A | B |");
    expect(committable).toContain("| 1 | 2 |");
    expect(committable).toContain("Text");
  });

  it("getCommittableText should not buffer inside code fence", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("```\n| A |\n");
    expect(r.getCommittableText()).toContain("| A |");
  });

  it("getCommittableText should return full text after finish", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Text\n\n| A | B |\n");
    expect(r.getCommittableText()).not.toContain("| A | B |");
    r.finish();
    expect(r.getCommittableText()).toContain("| A | B |");
  });

  it("getCommittableText should flush unclosed markers after finish", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello **wor\n");
    expect(r.getCommittableText()).toBe("Hello ");
    r.finish();
    expect(r.getCommittableText()).toBe("Hello **wor\n");
  });

  it("getCommittableText delta should stream table in code fence", () => {
    const r = new StreamingMarkdownRenderer();
    let lastAppended = "";
    r.push("Hello\n\n");
    let committable = r.getCommittableText();
    let delta = committable.slice(lastAppended.length);
    expect(delta).toBe("Hello\n\n");
    lastAppended = committable;

    r.push("| A | B |\n");
    committable = r.getCommittableText();
    delta = committable.slice(lastAppended.length);
    expect(delta).toBe("");

    r.push("|---|---|\n");
    committable = r.getCommittableText();
    delta = committable.slice(lastAppended.length);
    expect(delta).toContain("```");
    expect(delta).toContain("| A | B |");
    expect(delta).toContain("|---|---|");
    lastAppended = committable;

    r.push("| 1 | 2 |\n");
    committable = r.getCommittableText();
    delta = committable.slice(lastAppended.length);
    expect(delta).toContain("| 1 | 2 |");
    expect(delta).not.toContain("```");
    lastAppended = committable;

    r.push("\nMore text\n");
    committable = r.getCommittableText();
    delta = committable.slice(lastAppended.length);
    expect(delta).toContain("```");
    expect(delta).toContain("More text");
  });

  it("getCommittableText delta should work for inline markers in append-only streaming", () => {
    const r = new StreamingMarkdownRenderer();
    let lastAppended = "";
    r.push("Hello ");
    expect(r.getCommittableText()).toBe("");

    r.push("**world** done\n");
    let committable = r.getCommittableText();
    let delta = committable.slice(lastAppended.length);
    expect(delta).toBe("Hello **world** done\n");
    lastAppended = committable;

    r.push("More **text");
    committable = r.getCommittableText();
    delta = committable.slice(lastAppended.length);
    expect(delta).toBe("");

    r.push("** end\n");
    committable = r.getCommittableText();
    delta = committable.slice(lastAppended.length);
    expect(delta).toBe("More **text** end\n");
  });

  it("append-only: plain text streams without modification", () => {
    const { appendedText } = simulateAppendStream(["Hello ", "World", "!\n"]);
    expect(appendedText).toBe("Hello World!\n");
  });

  it("append-only: bold markers are held then released", () => {
    const { appendedText } = simulateAppendStream(["Hello ", "**bold", "** text\n"]);
    expect(appendedText).toContain("**bold**");
    expect(appendedText).toContain("Hello ");
  });

  it("append-only: table is wrapped in code fence", () => {
    const { appendedText } = simulateAppendStream([
      "Intro\n\n",
      "| A | B |\n",
      "|---|---|\n",
      "| 1 | 2 |\n",
      "| 3 | 4 |\n",
      "\nAfter table\n",
    ]);
    expect(appendedText).toContain("```\n| A | B |");
    expect(appendedText).toContain("| 1 | 2 |");
    expect(appendedText).toContain("| 3 | 4 |");
    expect(appendedText).toContain("```\n\nAfter table");
    expect(appendedText.indexOf("Intro")).toBeLessThan(appendedText.indexOf("```"));
  });

  it("append-only: table can stream without code fence when wrapping is disabled", () => {
    const { appendedText } = simulateAppendStream(
      ["Intro\n\n", "| A | B |\n", "|---|---|\n", "| 1 | 2 |\n", "| 3 | 4 |\n", "\nAfter table\n"],
      { wrapTablesForAppend: false },
    );
    expect(appendedText).toContain("| A | B |");
    expect(appendedText).toContain("| 1 | 2 |");
    expect(appendedText).toContain("| 3 | 4 |");
    expect(appendedText).toContain("After table");
    expect(appendedText).not.toContain("```");
  });

  it("append-only: table at end of stream is flushed on finish", () => {
    const { appendedText, deltas } = simulateAppendStream([
      "Text\n\n",
      "| A | B |\n",
      "|---|---|\n",
      "| 1 | 2 |\n",
    ]);
    expect(appendedText).toContain("| A | B |");
    expect(appendedText).toContain("```");
    expect(deltas.at(-1)).toBeTruthy();
  });

  const MIXED_CHUNKS = [
    "Hello **world**\n",
    "\n",
    "| H1 | H2 |\n",
    "| - | - |\n",
    "| a | b |\n",
    "| c | d |\n",
    "\nDone\n",
  ];

  it("append-only: concatenated deltas equal getCommittableText after finish", () => {
    const { appendedText } = simulateAppendStream(MIXED_CHUNKS);
    expect(appendedText).toContain("Hello **world**");
    expect(appendedText).toContain("| H1 | H2 |");
    expect(appendedText).toContain("| a | b |");
    expect(appendedText).toContain("| c | d |");
    expect(appendedText).toContain("Done");
    expect(appendedText).toContain("```");
  });

  it("append-only: concatenated deltas equal final text when table wrapping is disabled", () => {
    const { appendedText, finalText } = simulateAppendStream(MIXED_CHUNKS, {
      wrapTablesForAppend: false,
    });
    expect(appendedText).toContain("Hello **world**");
    expect(appendedText).toContain("| H1 | H2 |");
    expect(appendedText).toContain("| a | b |");
    expect(appendedText).toContain("| c | d |");
    expect(appendedText).toContain("Done");
    expect(appendedText).not.toContain("```");
    expect(appendedText).toBe(finalText);
  });

  it("append-only: concatenated deltas are monotonic (each is a suffix)", () => {
    const r = new StreamingMarkdownRenderer();
    let lastAppended = "";
    const deltas: string[] = [];
    const chunks = [
      "Hello **world**\n",
      "\n",
      "| A | B |\n",
      "| - | - |\n",
      "| 1 | 2 |\n",
      "\nDone\n",
    ];
    for (const chunk of chunks) {
      r.push(chunk);
      const committable = r.getCommittableText();
      expect(committable.startsWith(lastAppended)).toBe(true);
      const delta = committable.slice(lastAppended.length);
      if (delta.length > 0) {
        deltas.push(delta);
        lastAppended = committable;
      }
    }
    r.finish();
    const finalCommittable = r.getCommittableText();
    expect(finalCommittable.startsWith(lastAppended)).toBe(true);
    const finalDelta = finalCommittable.slice(lastAppended.length);
    if (finalDelta.length > 0) deltas.push(finalDelta);
    expect(deltas.join("")).toBe(finalCommittable);
  });

  it("append-only: final flush uses transformed text not raw text", () => {
    const r = new StreamingMarkdownRenderer();
    let lastAppended = "";
    for (const chunk of ["Intro\n\n", "| ID | Name |\n", "|---|---|\n", "| 1 | Alice |\n"]) {
      r.push(chunk);
      const committable = r.getCommittableText();
      if (committable.length > lastAppended.length) lastAppended = committable;
    }
    r.finish();
    const raw = r.getText();
    const transformed = r.getCommittableText();
    expect(transformed).toContain("```");
    expect(transformed.length).toBeGreaterThan(raw.length);
    const correctDelta = transformed.slice(lastAppended.length);
    expect(lastAppended + correctDelta).toBe(transformed);
    const buggyDelta = raw.slice(lastAppended.length);
    expect(lastAppended + buggyDelta).not.toBe(transformed);
  });

  it("append-only: real-world 20-row table streams correctly", () => {
    const header = "| ID | Name | Department | Age | Salary | City | Join Date |\n";
    const sep = "| - | - | - | - | - | - | - |\n";
    const rows = [
      "| 1 | Alice Johnson | Engineering | 28 | $75,000 | New York | 2021-03-15 |\n",
      "| 2 | Bob Smith | Marketing | 35 | $68,000 | Los Angeles | 2019-07-22 |\n",
      "| 3 | Carol Davis | Finance | 31 | $82,000 | Chicago | 2021-01-10 |\n",
    ];
    const { appendedText, finalText } = simulateAppendStream([
      "Here's a table:\n\n",
      header,
      sep,
      ...rows,
    ]);
    expect(appendedText).toContain("Alice Johnson");
    expect(appendedText).toContain("Bob Smith");
    expect(appendedText).toContain("Carol Davis");
    expect(appendedText).toContain("```");
    expect(appendedText).toContain("Join Date");
    expect(appendedText).not.toContain("JoinJoin");
    expect(finalText).toContain("Alice Johnson");
    expect(finalText).toContain("| 3 |");
  });

  it("append-only: table rows split mid-token stream correctly", () => {
    const { appendedText } = simulateAppendStream([
      "Text\n\n",
      "| A",
      " | B |\n",
      "|---|",
      "---|\n",
      "| 1 | ",
      "2 |\n",
    ]);
    expect(appendedText).toContain("```");
    expect(appendedText).toContain("| A | B |");
    expect(appendedText).toContain("| 1 | 2 |");
    expect(appendedText.slice(0, appendedText.indexOf("```"))).not.toContain("| A");
  });

  it("append-only: multiple tables in sequence", () => {
    const { appendedText } = simulateAppendStream([
      "First table:\n\n",
      "| A |\n",
      "|---|\n",
      "| 1 |\n",
      "\nSecond table:\n\n",
      "| X |\n",
      "|---|\n",
      "| 9 |\n",
      "\nDone\n",
    ]);
    expect((appendedText.match(/```/g) || []).length).toBe(4);
    expect(appendedText).toContain("| 1 |");
    expect(appendedText).toContain("| 9 |");
  });

  it("should track dirty flag correctly across push-render-push-render", () => {
    const r = new StreamingMarkdownRenderer();
    r.push("Hello");
    const r1 = r.render();
    expect(r1).toBe("Hello");
    expect(r.render()).toBe(r1);
    r.push(" **bold");
    const r2 = r.render();
    expect(r2).not.toBe(r1);
    expect(r2).toContain("Hello **bold");
    expect((r2.match(/\*\*/g) || []).length % 2).toBe(0);
  });

  describe("exhaustive prefix invariants", () => {
    const COMPLEX_MARKDOWN = [
      "# Heading\n",
      "\n",
      "Some **bold** and *italic* text with `inline code` here.\n",
      "\n",
      "A [link](https://example.com) and ~~deleted~~ stuff.\n",
      "\n",
      "## Table section\n",
      "\n",
      "| Name | Age | City |\n",
      "| - | - | - |\n",
      "| Alice | 30 | NYC |\n",
      "| Bob | 25 | LA |\n",
      "\n",
      "Text after table with **bold again**.\n",
      "\n",
      "```\n",
      "code block with | pipes | inside\n",
      "and **markers** that are literal\n",
      "```\n",
      "\n",
      "Final paragraph.\n",
    ].join("");

    it("render() output is always valid markdown (remend is idempotent)", () => {
      const r = new StreamingMarkdownRenderer();
      for (let i = 0; i < COMPLEX_MARKDOWN.length; i++) {
        r.push(COMPLEX_MARKDOWN[i] as string);
        const rendered = r.render();
        expect(repair(rendered), `render() at position ${i}`).toBe(rendered);
      }
    });

    it("getCommittableText() output is always monotonic (append-only safe)", () => {
      const r = new StreamingMarkdownRenderer();
      let prev = "";
      for (let i = 0; i < COMPLEX_MARKDOWN.length; i++) {
        r.push(COMPLEX_MARKDOWN[i] as string);
        const committable = r.getCommittableText();
        expect(committable.startsWith(prev), `monotonic at char ${i}`).toBe(true);
        prev = committable;
      }
    });

    it("getCommittableText() never contains raw table pipes outside code fences", () => {
      const r = new StreamingMarkdownRenderer();
      for (let i = 0; i < COMPLEX_MARKDOWN.length; i++) {
        r.push(COMPLEX_MARKDOWN[i] as string);
        const sections = r.getCommittableText().split(CODE_FENCE_SPLIT_RE);
        for (let s = 0; s < sections.length; s += 2) {
          for (const line of (sections[s] as string).split("\n")) {
            const trimmed = line.trim();
            const looksLikeTable =
              TABLE_PIPE_RE.test(trimmed) && (trimmed.match(/\|/g) || []).length >= 3;
            expect(looksLikeTable, `table-like line outside a fence at char ${i}: ${trimmed}`).toBe(
              false,
            );
          }
        }
      }
    });

    it("getCommittableText() is always clean (remend would not add markers)", () => {
      const r = new StreamingMarkdownRenderer();
      let checked = 0;
      for (let i = 0; i < COMPLEX_MARKDOWN.length; i++) {
        r.push(COMPLEX_MARKDOWN[i] as string);
        const committable = r.getCommittableText();
        if (committable.length === 0 || isInsideCodeFence(committable)) continue;
        checked += 1;
        expect(repair(committable).length, `position ${i}`).toBeLessThanOrEqual(committable.length);
      }
      expect(checked).toBeGreaterThan(100);
    });

    it("finish() always produces the full text", () => {
      for (const cut of [0, 10, 50, 100, 150, COMPLEX_MARKDOWN.length]) {
        const r = new StreamingMarkdownRenderer();
        r.push(COMPLEX_MARKDOWN.slice(0, cut));
        r.finish();
        expect(r.getText()).toBe(COMPLEX_MARKDOWN.slice(0, cut));
      }
    });

    it("append-only delta reconstruction works for character-by-character streaming", () => {
      const r = new StreamingMarkdownRenderer();
      let lastAppended = "";
      const deltas: string[] = [];
      for (let i = 0; i < COMPLEX_MARKDOWN.length; i++) {
        r.push(COMPLEX_MARKDOWN[i] as string);
        const committable = r.getCommittableText();
        expect(committable.startsWith(lastAppended), `monotonic at char ${i}`).toBe(true);
        const delta = committable.slice(lastAppended.length);
        if (delta.length > 0) {
          deltas.push(delta);
          lastAppended = committable;
        }
      }
      r.finish();
      const finalCommittable = r.getCommittableText();
      expect(finalCommittable.startsWith(lastAppended)).toBe(true);
      const finalDelta = finalCommittable.slice(lastAppended.length);
      if (finalDelta.length > 0) deltas.push(finalDelta);
      expect(deltas.join("")).toBe(finalCommittable);
      expect(r.getText()).toBe(COMPLEX_MARKDOWN);
    });
  });
});
