import { createMockAdapter, createTestState, type MockAdapter } from "@baton/testing";
import type { Tool } from "ai";
import { Chat, type Logger, type StateAdapter } from "../../src/index.js";

/** The tool-call options every execute call below passes (upstream's stub). */
export const TOOL_OPTIONS = {
  toolCallId: "t1",
  messages: [],
} as unknown as Parameters<NonNullable<Tool["execute"]>>[1];

/** A logger that keeps its lines, so a test can check a warning was written. */
export function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (message: string): void => {
      lines.push({ level, message });
    };
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: () => logger,
  };
  return { logger, lines };
}

/** Upstream's fixture: a Chat named `testbot` with one mock adapter `slack`, initialized. */
export async function createToolsHarness(
  options: {
    adapters?: readonly string[];
    capabilities?: Parameters<typeof createMockAdapter>[1];
  } = {},
) {
  const names = options.adapters ?? ["slack"];
  const adapters: Record<string, MockAdapter> = {};
  for (const name of names) adapters[name] = createMockAdapter(name, options.capabilities);
  const state: StateAdapter = await createTestState();
  const { logger, lines } = recordingLogger();
  const chat = new Chat({ userName: "testbot", adapters, state, logger });
  await chat.initialize();
  const mock = adapters[names[0] ?? "slack"] as MockAdapter;
  return { chat, mock, adapters, state, lines };
}

/** The argument lists of every recorded call of `method`, in call order. */
export function argsOf(mock: MockAdapter, method: Parameters<MockAdapter["callsOf"]>[0]) {
  return mock.callsOf(method).map((call) => call.args);
}
