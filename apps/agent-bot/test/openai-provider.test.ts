import { createMemoryState } from "@baton/state-memory";
import { createMockAdapter, createTestMessage } from "@baton/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentBot, notices } from "../src/bot.js";
import { modelFromEnv } from "../src/model-from-env.js";
import { type OpenAiStandIn, startOpenAiStandIn } from "./openai-stand-in.js";
import { eventually } from "./platform-harness.js";

const THREAD = "mock:C1:T1";
const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent } as never;

describe("the agent bot on a real provider (OPENAI_API_KEY, a local OpenAI stand-in)", () => {
  let standIn: OpenAiStandIn;

  beforeAll(async () => {
    standIn = await startOpenAiStandIn({
      answer: (read) => `The stand-in read ${read} messages and answers from the provider.`,
      heldAfterWords: 3,
    });
  });
  afterAll(async () => {
    await standIn.close();
  });

  it("streams the provider's answer through the bot, after the provider's tool call read the thread", async () => {
    const chosen = modelFromEnv(
      {
        OPENAI_API_KEY: "sk-test-key",
        OPENAI_BASE_URL: standIn.baseUrl,
        OPENAI_MODEL: "gpt-stand",
      },
      silent,
    );
    expect(chosen.kind).toBe("openai");
    const adapter = createMockAdapter("mock", {
      userName: "agent",
      capabilities: { streaming: "native" },
    });
    const bot = createAgentBot({
      state: createMemoryState(),
      adapters: { mock: adapter },
      model: chosen.model,
      logger: "silent",
    });
    await bot.chat.initialize();
    const question = createTestMessage({
      id: "m1",
      text: "@agent what is Baton?",
      threadId: THREAD,
    });
    adapter.seedMessages(THREAD, [
      createTestMessage({ id: "m0", text: "we deploy on Fridays", threadId: THREAD }),
      question,
    ]);
    const streamed = () => {
      const call = adapter.callsOf("stream").find((each) => each.threadId === THREAD);
      return ((call?.args[1] as string[] | undefined) ?? []).join("");
    };

    const done = bot.chat.processMessage(adapter, THREAD, question);
    // The stand-in holds its answer after three words: the bot shows them before the rest exists.
    const partial = await eventually(streamed, (text) => text.split(" ").length >= 3);
    expect(partial).toBe("The stand-in read");
    standIn.release();
    expect(await done).toEqual({ outcome: "handled" });

    expect(adapter.postedTo(THREAD).at(-1)).toBe(
      "The stand-in read 2 messages and answers from the provider.",
    );
    expect(adapter.callsOf("editMessage").map((call) => call.args[2])).toEqual([notices.answered]);
    // Two provider calls, as an agent makes them: the tool call, then the answer with its result.
    expect(standIn.requests.map((request) => request.path)).toEqual([
      "/v1/responses",
      "/v1/responses",
    ]);
    const [first, second] = standIn.requests;
    expect(first?.authorization).toBe("Bearer sk-test-key");
    expect(first?.body).toMatchObject({ model: "gpt-stand", stream: true });
    expect(JSON.stringify(first?.body.tools)).toContain("fetchMessages");
    const returned = (second?.body.input as Array<{ type?: string; output?: string }>).find(
      (item) => item.type === "function_call_output",
    );
    expect(returned?.output).toContain("what is Baton?");
    expect(returned?.output).toContain("we deploy on Fridays");
    expect(adapter.callsOf("fetchMessages").map((call) => call.threadId)).toEqual([THREAD]);
    await bot.chat.shutdown();
  }, 60_000);
});
