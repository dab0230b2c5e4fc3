import { createMemoryState } from "@baton/state-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantAnswer, desk, replies } from "../src/replies.js";
import { type SupportServer, startSupportServer } from "../src/server.js";

const ALICE_DM = "web:alice:dm";

/**
 * A user's event stream, read as it arrives: `until(predicate)` reads events until the texts
 * seen so far (snapshots and live messages, in order) satisfy `predicate`. It waits on events,
 * never on time; vitest's timeout is the only limit.
 */
async function openEvents(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const texts: string[] = [];
  let buffer = "";
  const take = (block: string) => {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => line.slice(6))
      .join("\n");
    if (!data) return;
    const event = JSON.parse(data) as {
      type: string;
      message?: { text: string };
      messages?: Array<{ text: string }>;
    };
    if (event.type === "snapshot") texts.push(...(event.messages ?? []).map((m) => m.text));
    if (event.type === "message" && event.message) texts.push(event.message.text);
  };
  return {
    texts,
    async until(predicate: (seen: readonly string[]) => boolean): Promise<readonly string[]> {
      while (!predicate(texts)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended; seen: ${JSON.stringify(texts)}`);
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          take(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
      return texts;
    },
    close: () => controller.abort(),
  };
}

describe("the support bot's HTTP server (web adapter)", () => {
  let server: SupportServer;

  beforeAll(async () => {
    server = await startSupportServer({
      state: createMemoryState(),
      agentIds: ["sam"],
      port: 0,
      logger: "silent",
    });
  });
  afterAll(() => server.close());

  const post = (user: string | undefined, text: string) =>
    fetch(`${server.url}/api/chat/messages`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(user === undefined ? {} : { "x-support-user": user }),
      },
      body: JSON.stringify({ text }),
    });

  /** Spins the event loop (no timers) until the bot's State shows `count` waiting messages. */
  const queued = async (count: number) => {
    const state = server.bot.chat.getState();
    for (let turn = 0; turn < 10_000; turn++) {
      if ((await state.queueDepth(`thread:${ALICE_DM}`)) === count) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error(`the queue never reached ${count}`);
  };

  it("refuses a request that says nobody", async () => {
    expect((await post(undefined, "hi")).status).toBe(401);
  });

  it("welcomes a customer on opening the chat, and an agent takes over and hands back from their own conversation", async () => {
    const alice = await openEvents(`${server.url}/api/chat/events?user=alice`);
    const sam = await openEvents(`${server.url}/api/chat/events?user=sam`);
    try {
      await alice.until((seen) => seen.includes(replies.welcome));

      expect((await post("alice", "where is my order?")).status).toBe(202);
      await alice.until((seen) => seen.includes(assistantAnswer("where is my order?", 1)));

      // The web adapter lets nobody write in another user's thread, so Sam names Alice's.
      expect((await post("sam", `/agent take ${ALICE_DM}`)).status).toBe(202);
      await alice.until((seen) => seen.includes(replies.agentJoined("sam")));

      await post("alice", "hello?");
      await post("alice", "anyone?");
      await queued(2);

      await post("sam", `/agent release ${ALICE_DM}`);
      const seen = await alice.until((texts) => texts.includes(assistantAnswer("anyone?", 2)));
      expect(seen.slice(seen.indexOf(replies.agentJoined("sam")))).toEqual([
        replies.agentJoined("sam"),
        "hello?",
        "anyone?",
        replies.assistantBack,
        assistantAnswer("anyone?", 2),
      ]);
      await sam.until((texts) => texts.includes(desk.handedBack(ALICE_DM)));
      // The welcome was posted once, on opening; the answers did not repeat it.
      expect(seen.filter((text) => text === replies.welcome)).toHaveLength(1);
    } finally {
      alice.close();
      sam.close();
    }
  });
});
