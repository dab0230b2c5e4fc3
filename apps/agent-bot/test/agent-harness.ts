import type { DeliveryResult } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { type AgentStrategy, createAgentBot } from "../src/bot.js";
import { createLocalModel } from "../src/local-model.js";

/** The thread every story happens in: a channel thread of the mock platform. */
export const T1 = "mock:C1:T1";

/** The pause before each word of the local model's answer. */
export const CHUNK_DELAY_MS = 1_000;

/**
 * The agent bot on the recording mock adapter (native streaming, cards, actions), the real
 * memory State, a fake clock and the deterministic local model pacing its words on that clock.
 */
export async function createAgentHarness(
  options: { strategy?: AgentStrategy; streaming?: "native" | "edit" } = {},
) {
  const clock = createFakeClock();
  const state = createMemoryState({ clock });
  const adapter = createMockAdapter("mock", {
    userName: "agent",
    capabilities: { streaming: options.streaming ?? "native" },
  });
  const bot = createAgentBot({
    state,
    adapters: { mock: adapter },
    model: createLocalModel({ clock, chunkDelayMs: CHUNK_DELAY_MS }),
    clock,
    logger: "silent",
    ...(options.strategy === undefined ? {} : { strategy: options.strategy, debounceMs: 2_000 }),
  });
  await bot.chat.initialize();

  /** Delivers a user's message; resolves with its delivery result. */
  const send = (text: string, id: string, threadId = T1): Promise<DeliveryResult> =>
    bot.chat.processMessage(adapter, threadId, createTestMessage({ id, text, threadId }));

  /** Clicks the stop button on the control card the bot posted in `threadId`. */
  const clickStop = async (threadId = T1) => {
    const card = adapter
      .callsOf("postMessage")
      .find(
        (call) => call.threadId === threadId && JSON.stringify(call.args).includes("agent:stop"),
      );
    if (!card) throw new Error("no stop card was posted");
    await bot.chat.processAction(adapter, {
      actionId: "agent:stop",
      value: threadId,
      user: {
        userId: "U_USER",
        userName: "user",
        fullName: "Test User",
        isBot: false,
        isMe: false,
      },
      messageId: "mock-msg-1",
      threadId,
    });
  };

  /** The chunks the native stream into `threadId` has read so far, joined. */
  const streamed = (threadId = T1): string => {
    const call = adapter.callsOf("stream").find((each) => each.threadId === threadId);
    return ((call?.args[1] as string[] | undefined) ?? []).join("");
  };

  return { clock, state, adapter, bot, send, clickStop, streamed };
}
