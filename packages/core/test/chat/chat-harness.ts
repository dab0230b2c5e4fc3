import type { Attachment, Clock, StateAdapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  type MockAdapterOptions,
  type TestMessageOverrides,
} from "@baton/testing";
import { Chat, type ChatConfig } from "../../src/index.js";

/** Options of {@link createChatHarness}: any Chat option, plus the mock adapter's. */
export type ChatHarnessOptions = Partial<Omit<ChatConfig, "adapters" | "state">> & {
  adapter?: MockAdapterOptions;
  /** Give the memory State its fused fast paths (DESIGN §4.1); default false. */
  fastPaths?: boolean;
};

/**
 * One instance of the bot (`userName` "bot", a recording mock adapter named `mock`, silent) on a
 * State and clock it may share with other instances; not initialized yet, so handlers can be
 * registered first.
 */
export function botInstance(
  state: StateAdapter,
  clock: Clock,
  config: Partial<Omit<ChatConfig, "adapters" | "state" | "clock">> = {},
  adapterOptions?: MockAdapterOptions,
) {
  const adapter = createMockAdapter("mock", adapterOptions);
  const chat = new Chat({
    userName: "bot",
    adapters: { mock: adapter },
    state,
    logger: "silent",
    clock,
    ...config,
  });
  return { chat, adapter };
}

/**
 * A `Chat` on the real memory state, a fake clock and the recording mock adapter (named `mock`,
 * bot handle `bot`), initialized and ready. Threads are `mock:{channel}:{thread}`; channels that
 * start with `D` are DMs.
 */
export async function createChatHarness(options: ChatHarnessOptions = {}) {
  const { adapter: adapterOptions, fastPaths = false, ...chatOptions } = options;
  const clock = createFakeClock();
  const state = createMemoryState({ clock, fastPaths });
  const { chat, adapter } = botInstance(state, clock, chatOptions, adapterOptions);
  await chat.initialize();

  /** Delivers a message as the platform would; returns the processMessage promise. */
  function send(text: string, overrides: TestMessageOverrides = {}) {
    const message = createTestMessage({ threadId: "mock:C1:T1", text, ...overrides });
    return { message, done: chat.processMessage(adapter, message.threadId, message) };
  }

  function attachment(extra: Partial<Attachment> = {}): Attachment {
    return { type: "file", name: "report.pdf", url: "https://files.example/report.pdf", ...extra };
  }

  return { chat, adapter, state, clock, send, attachment };
}
