import { type ActionEvent, type Logger, sleep } from "@baton/core";
import { createTestAuthor, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "../chat/chat-harness.js";
import { timeline, within } from "./gate-scenarios.js";

function action(overrides: Partial<ActionEvent> = {}): ActionEvent {
  return {
    actionId: "approve",
    user: createTestAuthor({ userId: "U123" }),
    messageId: "msg-1",
    threadId: "mock:C1:T1",
    ...overrides,
  };
}

function message(id: string, text: string) {
  return createTestMessage({ id, text, threadId: "mock:C1:T1" });
}

function recordingLogger() {
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (message: string) => {
      warnings.push(message);
    },
    error: () => {},
  };
  return { logger, warnings };
}

describe("the turn gate inside Chat (DESIGN §7.2)", () => {
  it("runs message handlers as turns: reconfigure waits for a running handler and holds back later ones", async () => {
    const h = await createChatHarness();
    const line = timeline(h.clock);
    h.chat.onNewMention(async (thread, message) => {
      await line.step(`${thread.id} ${message.text}`, 100)();
    });
    const first = h.send("@bot first", { threadId: "mock:C1:T1" });
    await h.clock.advance(10);
    const rotated = h.chat.reconfigure("mock", async (adapter) => {
      await line.step(`rotate ${adapter.name}`, 50)();
      return "rotated";
    });
    await h.clock.advance(10);
    const later = h.send("@bot later", { threadId: "mock:C1:T2" });
    await h.clock.advance(1_000);
    expect(await rotated).toBe("rotated");
    expect(await first.done).toEqual({ outcome: "handled" });
    expect(await later.done).toEqual({ outcome: "handled" });
    expect(line.events).toEqual([
      "mock:C1:T1 @bot first start",
      "mock:C1:T1 @bot first end",
      "rotate mock start",
      "rotate mock end",
      "mock:C1:T2 @bot later start",
      "mock:C1:T2 @bot later end",
    ]);
  });

  it("runs event handlers as turns of their tenant's installation, isolated from other tenants", async () => {
    const h = await createChatHarness();
    const line = timeline(h.clock);
    h.chat.onAction(async () => {
      await line.step("action of T1", 100)();
    });
    const event = h.chat.processAction(h.adapter, action(), { tenantId: "T1" });
    await h.clock.settle();
    void h.chat.withExclusive({ adapter: "mock", tenant: "T2" }, line.step("T2 action", 10));
    void h.chat.withExclusive({ adapter: "mock", tenant: "T1" }, line.step("T1 action", 10));
    await h.clock.advance(1_000);
    await event;
    expect(line.at("T2 action start")).toBe(line.at("action of T1 start"));
    expect(line.at("T1 action start")).toBe(line.at("action of T1 end"));
  });

  it("carries the tenant through the State queue, so a drained run is a turn of its installation", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const line = timeline(h.clock);
    h.chat.onNewMention(async (_thread, message) => {
      await line.step(message.text, 100)();
    });
    const tenant = { tenantId: "T1" };
    const first = h.chat.processMessage(h.adapter, "mock:C1:T1", message("m1", "@bot one"), tenant);
    await h.clock.advance(10);
    const second = h.chat.processMessage(
      h.adapter,
      "mock:C1:T1",
      message("m2", "@bot two"),
      tenant,
    );
    await h.clock.advance(10);
    void h.chat.withExclusive({ adapter: "mock", tenant: "T1" }, line.step("T1 action", 200));
    await h.clock.advance(1_000);
    await Promise.all([first, second]);
    // m2 waits in the queue; drained after m1, its run must still wait for T1's action.
    expect(line.at("T1 action start")).toBe(line.at("@bot one end"));
    expect(line.at("@bot two start")).toBe(line.at("T1 action end"));
  });

  it("upgrades when a handler reconfigures its own adapter: waits for the other handlers, then resumes", async () => {
    const h = await createChatHarness();
    const line = timeline(h.clock);
    h.chat.onNewMention(async (_thread, message) => {
      if (message.text === "@bot rotate") {
        line.mark("rotating handler start");
        await h.chat.reconfigure("mock", line.step("rotate", 20));
        line.mark("rotating handler resumes");
        return;
      }
      await line.step("other handler", 100)();
    });
    const other = h.send("@bot work", { threadId: "mock:C1:T2" });
    await h.clock.settle();
    const rotating = h.send("@bot rotate", { threadId: "mock:C1:T1" });
    const both = await within(h.clock, Promise.all([other.done, rotating.done]), 1_000);
    expect(both.settled).toBe(true);
    expect(line.at("rotate start")).toBe(line.at("other handler end"));
    expect(line.at("rotating handler resumes")).toBe(line.at("rotate end"));
  });

  it("refuses an event arriving during shutdown instead of running it against a closing State", async () => {
    const h = await createChatHarness();
    const line = timeline(h.clock);
    h.chat.onAction(() => line.mark("late action handler"));
    Object.assign(h.adapter, {
      disconnect: async () => {
        await line.step("adapter disconnect", 100)();
      },
    });
    const shutdown = h.chat.shutdown();
    await h.clock.advance(50);
    const late = h.chat
      .processAction(h.adapter, action())
      .catch((error: { code?: string }) => error.code);
    await h.clock.advance(1_000);
    await shutdown;
    expect(await late).toBe("ADMISSION_REJECTED");
    expect(line.at("adapter disconnect end")).toBeDefined();
    expect(line.events).not.toContain("late action handler");
  });

  it("disconnects anyway when a turn ignores its signal past timeoutMs, with a warning", async () => {
    const { logger, warnings } = recordingLogger();
    const h = await createChatHarness({ logger });
    const line = timeline(h.clock);
    h.chat.onAction(line.step("stubborn action", 5_000));
    const disconnect = h.state.disconnect.bind(h.state);
    h.state.disconnect = async () => {
      line.mark("state disconnect");
      return disconnect();
    };
    void h.chat.processAction(h.adapter, action());
    await h.clock.settle();
    const shutdown = within(h.clock, h.chat.shutdown({ timeoutMs: 1_000 }), 2_000);
    expect((await shutdown).settled).toBe(true);
    expect(line.at("state disconnect")).toBe(1_000);
    expect(warnings.some((warning) => warning.includes("turn gate was not free"))).toBe(true);
    await h.clock.advance(5_000);
  });

  it("finishes a shutdown started inside a handler instead of waiting for that handler forever", async () => {
    const h = await createChatHarness();
    let shutDown: Promise<void> | undefined;
    h.chat.onNewMention(async () => {
      shutDown = h.chat.shutdown({ timeoutMs: 1_000 });
      await shutDown;
    });
    const sent = h.send("@bot shut down please");
    const done = await within(h.clock, sent.done, 5_000);
    expect(done.settled).toBe(true);
    expect(shutDown).toBeDefined();
  });

  it("refuses an unknown adapter in reconfigure and in an exclusive scope", async () => {
    const h = await createChatHarness();
    await expect(h.chat.reconfigure("slak", () => 1)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(h.chat.withExclusive({ adapter: "slak" }, () => 1)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(await h.chat.tryWithExclusive("all", { deadline: 0 }, () => "ran")).toEqual({
      acquired: true,
      value: "ran",
    });
  });

  it("waits for work started with runDetached at shutdown", async () => {
    const h = await createChatHarness();
    const line = timeline(h.clock);
    const disconnect = h.state.disconnect.bind(h.state);
    h.state.disconnect = async () => {
      line.mark("state disconnect");
      return disconnect();
    };
    void h.chat.runDetached(line.step("background job", 300));
    const shutdown = h.chat.shutdown({ timeoutMs: 5_000 });
    await h.clock.advance(1_000);
    await shutdown;
    expect(line.at("state disconnect")).toBe(line.at("background job end"));
  });
});
