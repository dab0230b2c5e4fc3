import { describe, expect, it } from "vitest";
import { sleep } from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";
import { recordingLogger, submitter } from "./chat-interactions-harness.js";

const SUBMIT = { callbackId: "slow", viewId: "V1", values: {}, user: submitter() };
const LOAD = { actionId: "slow_select", query: "a", user: submitter() };

describe("interaction deadlines", () => {
  it("answers a modal submit without its handler once deadlineMs passed, and drops the late answer", async () => {
    const { logger, lines } = recordingLogger();
    const h = await createChatHarness({ logger });
    let finished = false;
    h.chat.onModalSubmit("slow", async () => {
      await sleep(h.clock, 5_000);
      finished = true;
      return { action: "errors", errors: { name: "Taken" } };
    });
    let answer: unknown = "pending";
    const submit = h.chat
      .processModalSubmit(h.adapter, SUBMIT, undefined, { deadlineMs: 2_500 })
      .then((value) => {
        answer = value;
      });

    await h.clock.advance(2_499);
    expect(answer).toBe("pending");
    await h.clock.advance(1);
    await submit;
    expect(answer).toBeUndefined();
    expect(finished).toBe(false);
    expect(lines.map((line) => line.message)).toContain(
      "modal submit handlers missed the 2500 ms deadline; answered without them",
    );

    await h.clock.advance(2_500);
    expect(finished).toBe(true);
    expect(lines.map((line) => line.message)).toContain(
      "modal submit handlers answered after the deadline; the answer is dropped",
    );
  });

  it("returns the handler's answer when it comes within the deadline", async () => {
    const h = await createChatHarness();
    h.chat.onModalSubmit("slow", async () => {
      await sleep(h.clock, 1_000);
      return { action: "errors", errors: { name: "Taken" } };
    });

    const submit = h.chat.processModalSubmit(h.adapter, SUBMIT, undefined, { deadlineMs: 2_500 });
    await h.clock.advance(1_000);

    expect(await submit).toEqual({ action: "errors", errors: { name: "Taken" } });
  });

  it("answers an options load with nothing once its deadline passed", async () => {
    const { logger, lines } = recordingLogger();
    const h = await createChatHarness({ logger });
    h.chat.onOptionsLoad("slow_select", async () => {
      await sleep(h.clock, 10_000);
      return [{ label: "Late", value: "late" }];
    });

    const load = h.chat.processOptionsLoad(h.adapter, LOAD, { deadlineMs: 2_000 });
    await h.clock.advance(2_000);

    expect(await load).toBeUndefined();
    expect(lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
      "options load handlers missed the 2000 ms deadline; answered without them",
    ]);
  });

  it("refuses a deadlineMs that is not a positive number with a ValidationError", async () => {
    const h = await createChatHarness();
    let ran = 0;
    h.chat.onOptionsLoad(() => {
      ran += 1;
      return [];
    });

    for (const deadlineMs of [0, -1, Number.NaN, "2500" as never]) {
      await expect(
        h.chat.processOptionsLoad(h.adapter, LOAD, { deadlineMs }),
      ).rejects.toMatchObject({ code: "VALIDATION_FAILED", step: "dispatch options load" });
    }
    expect(ran).toBe(0);
  });

  it("keeps a handler that missed its deadline a turn: an exclusive action still waits for it", async () => {
    const h = await createChatHarness();
    const order: string[] = [];
    h.chat.onModalSubmit("slow", async () => {
      await sleep(h.clock, 5_000);
      order.push("handler done");
    });
    const submit = h.chat.processModalSubmit(h.adapter, SUBMIT, undefined, { deadlineMs: 1_000 });
    await h.clock.advance(1_000);
    await submit;

    const rotation = h.chat.withExclusive({ adapter: "mock" }, () => {
      order.push("exclusive action");
    });
    await h.clock.advance(4_000);
    await rotation;

    expect(order).toEqual(["handler done", "exclusive action"]);
  });
});

describe("interactions as turns", () => {
  it("runs a modal submit as a turn of its tenant's installation", async () => {
    const h = await createChatHarness();
    const order: string[] = [];
    h.chat.onModalSubmit(async () => {
      order.push("submit start");
      await sleep(h.clock, 100);
      order.push("submit end");
    });
    const submit = h.chat.processModalSubmit(h.adapter, SUBMIT, undefined, { tenantId: "T1" });
    await h.clock.advance(0);

    const other = h.chat.withExclusive({ adapter: "mock", tenant: "T2" }, () => {
      order.push("T2 action");
    });
    const same = h.chat.withExclusive({ adapter: "mock", tenant: "T1" }, () => {
      order.push("T1 action");
    });
    await other;
    await h.clock.advance(100);
    await Promise.all([submit, same]);

    expect(order).toEqual(["submit start", "T2 action", "submit end", "T1 action"]);
  });

  it("refuses modal submits, closes and options loads once shutdown began", async () => {
    const h = await createChatHarness({ retryAfterMs: 3_000 });
    let ran = 0;
    h.chat.onModalSubmit(() => {
      ran += 1;
    });
    h.chat.onModalClose(() => {
      ran += 1;
    });
    h.chat.onOptionsLoad(() => {
      ran += 1;
      return [];
    });
    await h.chat.shutdown();

    const refused = { code: "ADMISSION_REJECTED", retryAfterMs: 3_000 };
    await expect(h.chat.processModalSubmit(h.adapter, SUBMIT)).rejects.toMatchObject(refused);
    await expect(
      h.chat.processModalClose(h.adapter, { callbackId: "slow", viewId: "V1", user: submitter() }),
    ).rejects.toMatchObject(refused);
    await expect(h.chat.processOptionsLoad(h.adapter, LOAD)).rejects.toMatchObject(refused);
    expect(ran).toBe(0);
  });

  it("refuses an interaction from an adapter that is not registered with the Chat", async () => {
    const h = await createChatHarness();
    const { createMockAdapter } = await import("@baton/testing");
    const stranger = createMockAdapter("mock");

    await expect(h.chat.processOptionsLoad(stranger, LOAD)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });
});
