import { AsyncLocalStorage } from "node:async_hooks";
import { type Adapter, type MessageContext, sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { botInstance } from "./chat-harness.js";

const T1 = "mock:C1:T1";

/**
 * Two instances of one bot on one State under `queue`; each adapter places every handler run
 * in its tenant (as a multi-workspace adapter places it in its installation's token).
 */
async function twoInstances() {
  const clock = createFakeClock();
  const state = createMemoryState({ clock });
  const make = async () => {
    const { chat, adapter } = botInstance(state, clock, { concurrency: "queue" });
    const tenantOfRun = new AsyncLocalStorage<string | undefined>();
    const asked: Array<string | undefined> = [];
    const placing: Adapter = adapter;
    placing.runForTenant = (tenant, _message, fn) => {
      asked.push(tenant);
      return tenantOfRun.run(tenant, fn);
    };
    const runs: Array<[string, string | undefined]> = [];
    chat.onNewMention(async (_thread, message, context: MessageContext) => {
      runs.push([message.id, tenantOfRun.getStore()]);
      if (message.id === "long") await sleep(clock, 1_000, context.signal);
    });
    await chat.initialize();
    return { chat, adapter, runs, asked };
  };
  return { clock, first: await make(), second: await make() };
}

describe("runs in the tenant's context (Adapter.runForTenant)", () => {
  it("runs a message drained by another instance inside its own delivery's tenant", async () => {
    const { clock, first, second } = await twoInstances();
    const long = first.chat.processMessage(
      first.adapter,
      T1,
      createTestMessage({ id: "long", text: "@bot long", threadId: T1 }),
      { tenantId: "T_A" },
    );
    await clock.advance(10);
    const queued = await second.chat.processMessage(
      second.adapter,
      T1,
      createTestMessage({ id: "waits", text: "@bot waits", threadId: T1 }),
      { tenantId: "T_B" },
    );
    expect(queued.outcome).toBe("queued");

    await clock.advance(1_000);
    expect(await long).toEqual({ outcome: "handled" });
    await clock.advance(10);

    // The first instance drained the second's message, and ran it as T_B's, not as its own T_A.
    expect(first.runs).toEqual([
      ["long", "T_A"],
      ["waits", "T_B"],
    ]);
    expect(first.asked).toEqual(["T_A", "T_B"]);
    expect(second.runs).toEqual([]);
  });

  it("ends the run as error, with no handler run, when the adapter cannot place it", async () => {
    const { first } = await twoInstances();
    const placing: Adapter = first.adapter;
    placing.runForTenant = () => Promise.reject(new Error("installation store down"));

    const result = await first.chat.processMessage(
      first.adapter,
      T1,
      createTestMessage({ id: "m1", text: "@bot hi", threadId: T1 }),
      { tenantId: "T_A" },
    );

    expect(result.outcome).toBe("error");
    expect(first.runs).toEqual([]);
  });
});
