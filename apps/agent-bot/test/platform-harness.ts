import type { Adapter, StateAdapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, type FakeClock } from "@baton/testing";
import { createLocalModel } from "../src/local-model.js";
import { startAgentServer } from "../src/server.js";

/** Waits (real time: the bot answers after the webhook, over real sockets) for `predicate`. */
export async function eventually<T>(read: () => T, predicate: (value: T) => boolean): Promise<T> {
  for (let waitedMs = 0; ; waitedMs += 10) {
    const value = read();
    if (predicate(value)) return value;
    if (waitedMs > 15_000) throw new Error(`gave up waiting; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The agent server with one hosted platform at `path`, on the local model whose words follow a
 * fake clock: `write(n)` lets it produce `n` more words, so a test decides how far an answer got.
 * Pass `modelClock` to share it with the adapter (e.g. Teams paces its stream updates on it).
 */
export async function startAgentOn(
  adapter: Adapter,
  path: string,
  state: StateAdapter = createMemoryState(),
  modelClock: FakeClock = createFakeClock(),
) {
  const server = await startAgentServer({
    state,
    model: createLocalModel({ clock: modelClock, chunkDelayMs: 1_000 }),
    port: 0,
    logger: "silent",
    platforms: [{ adapter, path }],
  });
  const write = async (words: number) => {
    for (let word = 0; word < words; word++) {
      await modelClock.advance(1_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { server, write };
}
