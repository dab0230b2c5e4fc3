import type { DeliveryResult, Observer } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { createSupportBot } from "../src/bot.js";

/** The customer of every story: a plain user of the mock platform. */
export const CUSTOMER = { userId: "U_CASEY", userName: "casey", fullName: "Casey" };
/** A support agent: listed in `agentIds`. */
export const AGENT = { userId: "U_SAM", userName: "sam", fullName: "Sam" };
/** Another agent, for "already held" stories. */
export const OTHER_AGENT = { userId: "U_ROBIN", userName: "robin", fullName: "Robin" };
/** The customer's conversation: a channel thread (the bot answers mentions, then follows it). */
export const T1 = "mock:C1:T1";
/** Sam's own direct conversation with the bot, where they type commands about other threads. */
export const DESK = "mock:DSAM:desk";

/** Options of {@link createSupportCluster}. */
export interface SupportClusterOptions {
  /** How many `Chat` instances (processes of one bot) share the State. Default 1. */
  instances?: number;
  holdTtlMs?: number;
}

/** Who sends a message, where, and under which id. */
export interface SendOptions {
  from?: typeof CUSTOMER;
  threadId?: string;
  id?: string;
}

/**
 * Support bots on one memory State and one fake clock: each instance has its own mock adapter
 * (so `adapter.postedTo` shows what that instance posted) and shares locks, queues, holds and
 * claims with the others, as processes sharing Redis would. `outcomes` holds every message's
 * latest disposition by message id, from whichever instance recorded it.
 */
export async function createSupportCluster(options: SupportClusterOptions = {}) {
  const clock = createFakeClock();
  const state = createMemoryState({ clock });
  const outcomes = new Map<string, string>();
  const observer: Observer = {
    onDispatchEvent(event) {
      if (event.kind !== "settled" || event.outcome === undefined) return;
      outcomes.set(event.deliveryKey.replace(/^mock:/, ""), event.outcome);
    },
  };

  const start = async () => {
    const adapter = createMockAdapter("mock", { userName: "support", clock });
    const bot = createSupportBot({
      state,
      adapters: { mock: adapter },
      agentIds: [AGENT.userId, OTHER_AGENT.userId],
      clock,
      logger: "silent",
      observer,
      ...(options.holdTtlMs === undefined ? {} : { holdTtlMs: options.holdTtlMs }),
    });
    await bot.chat.initialize();
    /** Delivers a message as the platform's webhook would; resolves with its disposition. */
    const send = (text: string, sendOptions: SendOptions = {}): Promise<DeliveryResult> => {
      const threadId = sendOptions.threadId ?? T1;
      const message = createTestMessage({
        threadId,
        text,
        author: sendOptions.from ?? CUSTOMER,
        ...(sendOptions.id === undefined ? {} : { id: sendOptions.id }),
      });
      return bot.chat.processMessage(adapter, threadId, message);
    };
    return { bot, adapter, send };
  };

  const instances: Array<Awaited<ReturnType<typeof start>>> = [];
  for (let i = 0; i < (options.instances ?? 1); i++) instances.push(await start());
  const first = instances[0] as Awaited<ReturnType<typeof start>>;
  return {
    clock,
    state,
    outcomes,
    instances,
    first,
    async shutdown() {
      await Promise.all(instances.map((instance) => instance.bot.chat.shutdown()));
    },
  };
}
