import { describe, expect, it } from "vitest";
import { fromFullStream } from "../../src/content/from-full-stream.js";

/** Every text the normalized stream yields, joined. */
async function collect(stream: AsyncIterable<unknown>): Promise<string> {
  let result = "";
  for await (const chunk of stream) result += chunk;
  return result;
}

async function* events(items: unknown[]): AsyncIterable<unknown> {
  for (const item of items) yield item;
}

describe("fromFullStream", () => {
  describe("fullStream (object events)", () => {
    it("extracts text-delta values", async () => {
      const stream = events([
        { type: "text-delta", textDelta: "hello" },
        { type: "text-delta", textDelta: " world" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("hello world");
    });

    it("injects separator between steps", async () => {
      const stream = events([
        { type: "text-delta", textDelta: "hello." },
        { type: "finish-step" },
        { type: "text-delta", textDelta: "how are you?" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("hello.\n\nhow are you?");
    });

    it("does not add trailing separator after final finish-step", async () => {
      const stream = events([{ type: "text-delta", textDelta: "done." }, { type: "finish-step" }]);
      expect(await collect(fromFullStream(stream))).toBe("done.");
    });

    it("handles multiple steps", async () => {
      const stream = events([
        { type: "text-delta", textDelta: "step 1" },
        { type: "finish-step" },
        { type: "text-delta", textDelta: "step 2" },
        { type: "finish-step" },
        { type: "text-delta", textDelta: "step 3" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("step 1\n\nstep 2\n\nstep 3");
    });

    it("skips tool-call and other non-text events", async () => {
      const stream = events([
        { type: "text-delta", textDelta: "before" },
        { type: "tool-call", toolName: "search", args: {} },
        { type: "tool-result", toolName: "search", result: "data" },
        { type: "finish-step" },
        { type: "tool-call-streaming-start", toolName: "lookup" },
        { type: "text-delta", textDelta: " after" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("before\n\n after");
    });

    it("handles consecutive finish-step events", async () => {
      const stream = events([
        { type: "text-delta", textDelta: "a" },
        { type: "finish-step" },
        { type: "finish-step" },
        { type: "text-delta", textDelta: "b" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("a\n\nb");
    });

    it("does not inject separator when finish-step comes before any text", async () => {
      const stream = events([
        { type: "finish-step" },
        { type: "text-delta", textDelta: "first text" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("first text");
    });

    it("ignores text-delta with non-string textDelta", async () => {
      const stream = events([
        { type: "text-delta", textDelta: 123 },
        { type: "text-delta", textDelta: null },
        { type: "text-delta" },
        { type: "text-delta", textDelta: "ok" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("ok");
    });
  });

  describe("textStream (plain strings)", () => {
    it("passes through string chunks", async () => {
      expect(await collect(fromFullStream(events(["hello", " ", "world"])))).toBe("hello world");
    });

    it("handles single string chunk", async () => {
      expect(await collect(fromFullStream(events(["complete message"])))).toBe("complete message");
    });
  });

  describe("fullStream v6 (text property)", () => {
    it("extracts text-delta with text property (AI SDK v6)", async () => {
      const stream = events([
        { type: "text-delta", id: "0", text: "hello" },
        { type: "text-delta", id: "0", text: " world" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("hello world");
    });

    it("injects separator between steps with text property", async () => {
      const stream = events([
        { type: "text-delta", id: "0", text: "step 1." },
        { type: "finish-step" },
        { type: "text-delta", id: "0", text: "step 2." },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("step 1.\n\nstep 2.");
    });

    it("prefers text over textDelta when both present", async () => {
      const stream = events([{ type: "text-delta", text: "v6", textDelta: "v5" }]);
      expect(await collect(fromFullStream(stream))).toBe("v6");
    });
  });

  describe("mixed and edge cases", () => {
    it("returns empty string for empty stream", async () => {
      expect(await collect(fromFullStream(events([])))).toBe("");
    });

    it("ignores invalid events (null, primitives, missing type)", async () => {
      const stream = events([
        null,
        undefined,
        42,
        { noType: true },
        { type: "text-delta", textDelta: "valid" },
      ]);
      expect(await collect(fromFullStream(stream))).toBe("valid");
    });

    it("handles mixed strings and objects", async () => {
      const stream = events(["hello", { type: "text-delta", textDelta: " world" }]);
      expect(await collect(fromFullStream(stream))).toBe("hello world");
    });
  });
});

describe("fromFullStream beyond upstream's cases", () => {
  it("passes structured chunks through untouched and keeps AI SDK 4's step-finish", async () => {
    const task = { type: "task_update", id: "t1", title: "Search", status: "pending" };
    const seen: unknown[] = [];
    const stream = events([
      { type: "text-delta", textDelta: "a" },
      { type: "step-finish" },
      task,
      { type: "text-delta", textDelta: "b" },
    ]);
    for await (const chunk of fromFullStream(stream)) seen.push(chunk);
    expect(seen).toEqual(["a", task, "\n\n", "b"]);
  });

  it("closes the source when the consumer stops early", async () => {
    let closed = false;
    async function* source() {
      try {
        yield "one";
        yield "two";
      } finally {
        closed = true;
      }
    }
    for await (const chunk of fromFullStream(source())) {
      expect(chunk).toBe("one");
      break;
    }
    expect(closed).toBe(true);
  });
});
