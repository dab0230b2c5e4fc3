import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notices } from "../src/bot.js";
import { createLocalModel } from "../src/local-model.js";
import { type AgentServer, startAgentServer } from "../src/server.js";

/**
 * A user's event stream: keeps each message's latest text (posts and the edits that stream an
 * answer), in the order messages first appeared. `until(predicate)` reads events until the
 * texts satisfy it; it waits on events, never on time.
 */
async function openEvents(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const texts = new Map<string, string>();
  let buffer = "";
  const take = (block: string) => {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => line.slice(6))
      .join("\n");
    if (!data) return;
    const event = JSON.parse(data) as { type: string; message?: { id: string; text: string } };
    if ((event.type === "message" || event.type === "edit") && event.message) {
      texts.set(event.message.id, event.message.text);
    }
  };
  return {
    async until(predicate: (seen: readonly string[]) => boolean): Promise<readonly string[]> {
      while (!predicate([...texts.values()])) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended; seen: ${JSON.stringify([...texts.values()])}`);
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          take(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
      return [...texts.values()];
    },
    close: () => controller.abort(),
  };
}

describe("the agent bot's HTTP server (web adapter)", () => {
  // The model's pace follows this clock, so the test decides how far an answer has got.
  const modelClock = createFakeClock();
  let server: AgentServer;
  let pumping = false;
  let pump: Promise<void> = Promise.resolve();
  /** Lets the model produce words (one per advance, each advance awaited) until stopped. */
  const startPumping = () => {
    pumping = true;
    pump = (async () => {
      while (pumping) {
        await modelClock.advance(1_000);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
  };
  const stopPumping = async () => {
    pumping = false;
    await pump;
  };

  beforeAll(async () => {
    server = await startAgentServer({
      state: createMemoryState(),
      model: createLocalModel({ clock: modelClock, chunkDelayMs: 1_000 }),
      port: 0,
      logger: "silent",
    });
  });
  afterAll(async () => {
    await stopPumping();
    await server.close();
  });

  const post = (user: string, text: string) =>
    fetch(`${server.url}/api/chat/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-agent-user": user },
      body: JSON.stringify({ text }),
    });

  it("streams an answer that read the conversation through a tool into the browser", async () => {
    const alice = await openEvents(`${server.url}/api/chat/events?user=alice`);
    try {
      expect((await post("alice", "what is Baton?")).status).toBe(202);
      startPumping();
      const seen = await alice.until((texts) => texts.some((t) => /deterministic/.test(t)));
      await alice.until((texts) => texts.includes(notices.answered));
      await stopPumping();
      const answer = seen.find((text) => /deterministic/.test(text));
      // fetchMessages read the thread: the question itself is in it.
      expect(answer).toMatch(
        /^I read the last [1-9]\d* messages of this conversation\. You asked: "what is Baton\?"/,
      );
    } finally {
      await stopPumping();
      alice.close();
    }
  });

  it("stops an answer mid-stream from the stop endpoint", async () => {
    const bob = await openEvents(`${server.url}/api/chat/events?user=bob`);
    try {
      await post("bob", "tell me everything");
      // The tool round, then the first words: the answer is on the page, far from its end.
      await bob.until((texts) => texts.includes("Answering… (stop it with POST /api/agent/stop)"));
      for (let word = 0; word < 8; word++) {
        await modelClock.advance(1_000);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await bob.until((texts) => texts.some((t) => t.startsWith("I")));
      const stop = await fetch(`${server.url}/api/agent/stop`, {
        method: "POST",
        headers: { "x-agent-user": "bob" },
      });
      expect(await stop.json()).toEqual({ ok: true, stopped: true });
      startPumping();
      const seen = await bob.until((texts) => texts.includes(notices.stopped));
      await stopPumping();
      const answer = seen.find((text) => text.startsWith("I read the last"));
      expect(answer).toBeDefined();
      expect(answer).not.toMatch(/deterministic/);
      expect(answer?.split(" ").length).toBeLessThan(30);
      // Nothing streams any more: a second stop finds nothing to stop.
      const again = await fetch(`${server.url}/api/agent/stop`, {
        method: "POST",
        headers: { "x-agent-user": "bob" },
      });
      expect(await again.json()).toEqual({ ok: true, stopped: false });
    } finally {
      await stopPumping();
      bob.close();
    }
  });
});
