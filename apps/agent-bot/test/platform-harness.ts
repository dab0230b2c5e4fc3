import type { Adapter, Clock, ClockTimer, StateAdapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, type FakeClock } from "@baton/testing";
import type { LanguageModel } from "ai";
import { createLocalModel } from "../src/local-model.js";
import { startAgentServer } from "../src/server.js";

const GIVE_UP_MS = 15_000;

/** Waits (real time: the bot answers after the webhook, over real sockets) for `predicate`. */
export async function eventually<T>(read: () => T, predicate: (value: T) => boolean): Promise<T> {
  for (let waitedMs = 0; ; waitedMs += 10) {
    const value = read();
    if (predicate(value)) return value;
    if (waitedMs > GIVE_UP_MS)
      throw new Error(`gave up waiting; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The local model on a fake clock, and the controls a test moves it with. */
export interface DrivenModel {
  readonly model: LanguageModel;
  /**
   * Lets the model produce exactly `words` more words: before each, waits (real time) until the
   * model is pausing for its next word, so no fake second passes while it is still reading the
   * thread or posting (a second that passes then would be lost, and with it the word).
   */
  write(words: number): Promise<void>;
  /** Lets the model run to the end of the answer it is giving or about to give. */
  finish(): Promise<void>;
  /**
   * Moves the clock on by `seconds` whether or not the model is pausing: after a stop, to show
   * that no further word comes.
   */
  tick(seconds: number): Promise<void>;
}

/**
 * The local model with its pauses on `clock`, watched: the driver knows when the model is pausing
 * before a word (its own timers, not other users' of `clock`) and when an answer has ended.
 */
export function driveLocalModel(clock: FakeClock = createFakeClock()): DrivenModel {
  const pauses = new Set<ClockTimer>();
  const watched: Clock = {
    now: () => clock.now(),
    setTimeout: (callback, delayMs) => {
      const timer = clock.setTimeout(() => {
        pauses.delete(timer);
        callback();
      }, delayMs);
      pauses.add(timer);
      return timer;
    },
    clearTimeout: (timer) => {
      pauses.delete(timer);
      clock.clearTimeout(timer);
    },
  };
  let answersEnded = 0;
  const model = watchAnswers(createLocalModel({ clock: watched, chunkDelayMs: 1_000 }), () => {
    answersEnded += 1;
  });
  const second = async () => {
    await clock.advance(1_000);
    await new Promise((resolve) => setImmediate(resolve));
  };
  const write = async (words: number) => {
    for (let word = 0; word < words; word++) {
      await eventually(
        () => pauses.size,
        (pausing) => pausing > 0,
      );
      await second();
    }
  };
  const finish = async () => {
    const ended = answersEnded;
    for (let waitedMs = 0; answersEnded === ended; ) {
      if (pauses.size > 0) {
        await second();
        waitedMs = 0;
        continue;
      }
      if (waitedMs > GIVE_UP_MS) throw new Error("the model neither paused nor ended its answer");
      await new Promise((resolve) => setTimeout(resolve, 10));
      waitedMs += 10;
    }
  };
  const tick = async (seconds: number) => {
    for (let s = 0; s < seconds; s++) await second();
  };
  return { model, write, finish, tick };
}

/**
 * `model` with `onAnswerEnded` called when a step that streamed text ends: read to its end,
 * cancelled, or failed (a stop aborts the model's pause, which fails its stream).
 */
function watchAnswers(model: LanguageModel, onAnswerEnded: () => void): LanguageModel {
  const base = model as unknown as {
    doStream(options: unknown): Promise<{ stream: ReadableStream }>;
  };
  const doStream = base.doStream.bind(base);
  base.doStream = async (options) => {
    const result = await doStream(options);
    let text = false;
    let ended = false;
    const end = () => {
      if (text && !ended) {
        ended = true;
        onAnswerEnded();
      }
    };
    const reader = result.stream.getReader();
    const stream = new ReadableStream({
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            end();
            controller.close();
            return;
          }
          if ((next.value as { type?: string }).type === "text-start") text = true;
          controller.enqueue(next.value);
        } catch (error) {
          end();
          controller.error(error);
        }
      },
      async cancel(reason) {
        end();
        await reader.cancel(reason);
      },
    });
    return { ...result, stream };
  };
  return model;
}

/**
 * The agent server with one hosted platform at `path`, on the local model whose words follow a
 * fake clock (see {@link DrivenModel}). Pass `modelClock` to share it with the adapter (e.g.
 * Teams paces its stream updates on it).
 */
export async function startAgentOn(
  adapter: Adapter,
  path: string,
  state: StateAdapter = createMemoryState(),
  modelClock: FakeClock = createFakeClock(),
) {
  const driven = driveLocalModel(modelClock);
  const server = await startAgentServer({
    state,
    model: driven.model,
    port: 0,
    logger: "silent",
    platforms: [{ adapter, path }],
  });
  return { server, ...driven };
}
