import { type Adapter, AdmissionRejectedError, type Chat, ConsoleLogger } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { afterEach, describe, expect, it } from "vitest";
import { InstanceRouter } from "../src/instance-router.js";
import { type Playground, startPlayground } from "../src/server.js";
import type { PlaygroundSettings } from "../src/settings.js";
import type { TimelineAttempt, TimelineEntry } from "../src/timeline.js";

// Real time, shortened: a killed instance's lease lapses within LOCK_TTL_MS and the survivor
// sweeps every SWEEP_INTERVAL_MS. Every wait below is for a state, with a generous deadline;
// nothing asserts on how fast it came.
const LOCK_TTL_MS = 1_000;
const SWEEP_INTERVAL_MS = 200;
const DEADLINE = { timeout: 20_000, interval: 50 };

/** A playground with its guest cookie and the calls the tests make. */
async function open(settings: Partial<PlaygroundSettings>) {
  const playground = await startPlayground({
    port: 0,
    logger: "silent",
    settings,
    lockTtlMs: LOCK_TTL_MS,
    sweepIntervalMs: SWEEP_INTERVAL_MS,
  });
  const page = await fetch(playground.url);
  const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const userId = cookie.split("=")[1] ?? "";
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${playground.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { cookie, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const threadId = `web:${userId}:failover`;
  return {
    playground,
    call,
    /** Posts `text` with the client id `id`; its delivery key is {@link key}`(id)`. */
    send: (id: string, text: string) => call("/api/web/messages", { threadId, text, id }),
    key: (id: string) => `web:${userId}.${id}`,
    botTexts: async () =>
      (await playground.adapter.fetchMessages(threadId)).messages
        .filter((message) => message.author.isMe)
        .map((message) => message.text)
        .reverse(),
    attempts: () =>
      playground.timeline
        .snapshot()
        .filter((entry): entry is TimelineAttempt => entry.kind === "attempt")
        .map(({ deliveryKey, instance, attempt, interruptedReason }) => ({
          deliveryKey,
          instance,
          attempt,
          ...(interruptedReason === undefined ? {} : { interruptedReason }),
        })),
    settled: (key: string) =>
      playground.timeline
        .snapshot()
        .filter((entry: TimelineEntry) => entry.kind === "settled" && entry.deliveryKey === key)
        .map((entry) => ("outcome" in entry ? [entry.instance, entry.outcome] : [])),
  };
}

describe("two instances of the demo bot on one State", () => {
  let playground: Playground | undefined;
  afterEach(async () => {
    await playground?.close();
    playground = undefined;
  });

  it("kills instance A mid-answer: B runs the turn again as attempt 2 (lease expired) and says it was interrupted, before the message queued behind it", async () => {
    const p = await open({ strategy: "queue", handlerSeconds: 60 });
    playground = p.playground;
    expect((await p.call("/api/instances/route", { deliverTo: "A" })).status).toBe(200);
    expect((await p.send("first", "@baton first")).status).toBe(202);
    // A is answering "first" and will think for a minute.
    await expect
      .poll(p.attempts, DEADLINE)
      .toEqual([{ deliveryKey: p.key("first"), instance: "A", attempt: 1 }]);

    // Later runs read the handler time anew: B answers at once.
    expect((await p.call("/api/settings", { handlerSeconds: 0 })).status).toBe(200);
    await p.call("/api/instances/route", { deliverTo: "B" });
    expect((await p.send("second", "@baton second")).status).toBe(202);
    // B finds the lock held by A: "second" waits in the State queue.
    await expect.poll(() => p.settled(p.key("second")), DEADLINE).toEqual([["B", "queued"]]);

    const killed = await p.call("/api/instances/A/kill", {});
    expect(killed.status).toBe(200);
    expect(killed.body.instances).toEqual([
      expect.objectContaining({ name: "A", status: "killed" }),
      expect.objectContaining({ name: "B", status: "running" }),
    ]);

    await expect.poll(p.botTexts, DEADLINE).toHaveLength(2);
    const [again, next] = await p.botTexts();
    expect(again).toMatch(
      /^I was interrupted — here is my answer again \(attempt 2: the instance answering stopped, and its lease on the lock expired\)\. Got 1 message at once\. Answering “@baton first”\. \(Thought for 0 s on instance B\.\)$/,
    );
    expect(next).toBe(
      "Got 1 message at once. Answering “@baton second”. (Thought for 0 s on instance B.)",
    );
    expect(p.attempts()).toEqual([
      { deliveryKey: p.key("first"), instance: "A", attempt: 1 },
      {
        deliveryKey: p.key("first"),
        instance: "B",
        attempt: 2,
        interruptedReason: "lease-expired",
      },
      { deliveryKey: p.key("second"), instance: "B", attempt: 1 },
    ]);
    // The dead instance said nothing more: "first" was settled by B alone.
    expect(p.settled(p.key("first"))).toEqual([["B", "handled"]]);
    // A killed instance cannot be killed again; a restart brings it back as a fresh `Chat`.
    expect((await p.call("/api/instances/A/kill", {})).status).toBe(409);
    const before = p.playground.runtime.instance("A").chat;
    expect((await p.call("/api/instances/A/restart", {})).status).toBe(200);
    expect(p.playground.runtime.instance("A").chat).not.toBe(before);
    await p.call("/api/instances/route", { deliverTo: "A" });
    expect((await p.send("third", "@baton third")).status).toBe(202);
    await expect.poll(async () => (await p.botTexts())[2], DEADLINE).toContain("on instance A");
  }, 60_000);

  it("shuts instance A down gracefully mid-answer: its turn is handed back and B runs it as attempt 2 (shutdown)", async () => {
    const p = await open({ strategy: "drop", handlerSeconds: 60 });
    playground = p.playground;
    await p.call("/api/instances/route", { deliverTo: "A" });
    await p.send("first", "@baton first");
    await expect.poll(p.attempts, DEADLINE).toHaveLength(1);
    await p.call("/api/settings", { handlerSeconds: 0 });

    const stopped = await p.call("/api/instances/A/shutdown", {});
    expect(stopped.body.instances).toEqual([
      expect.objectContaining({ name: "A", status: "stopped" }),
      expect.objectContaining({ name: "B", status: "running" }),
    ]);
    await expect.poll(p.botTexts, DEADLINE).toHaveLength(1);
    expect((await p.botTexts())[0]).toMatch(
      /^I was interrupted — here is my answer again \(attempt 2: the instance answering shut down and handed the turn back\)\. .*on instance B\.\)$/,
    );
    expect(p.attempts().map((run) => [run.instance, run.attempt, run.interruptedReason])).toEqual([
      ["A", 1, undefined],
      ["B", 2, "shutdown"],
    ]);
    // A handed the turn back ("queued" for another instance); B answered it.
    expect(p.settled(p.key("first"))).toEqual([
      ["A", "queued"],
      ["B", "handled"],
    ]);
    // With A down, messages meant for A go to B.
    await p.send("second", "@baton second");
    await expect.poll(async () => (await p.botTexts())[1], DEADLINE).toContain("on instance B");
  }, 60_000);

  it("restarts both instances on a strategy change mid-answer: the new ones run the handed-back turn again", async () => {
    const p = await open({ strategy: "drop", handlerSeconds: 60 });
    playground = p.playground;
    await p.send("first", "@baton first");
    await expect.poll(p.attempts, DEADLINE).toHaveLength(1);
    const before = p.playground.runtime.instance("A").chat;

    const applied = await p.call("/api/settings", { strategy: "queue", handlerSeconds: 0 });
    expect(applied.body).toMatchObject({ ok: true, settings: { strategy: "queue" } });
    expect(p.playground.runtime.instance("A").chat).not.toBe(before);
    await expect.poll(p.botTexts, DEADLINE).toHaveLength(1);
    expect((await p.botTexts())[0]).toContain("I was interrupted — here is my answer again");
    expect(p.attempts().map((run) => [run.attempt, run.interruptedReason])).toEqual([
      [1, undefined],
      [2, "shutdown"],
    ]);
  }, 60_000);

  it("refuses messages with 503 while no instance runs, and unknown instance actions", async () => {
    const p = await open({ handlerSeconds: 0 });
    playground = p.playground;
    expect((await p.call("/api/instances/C/kill", {})).status).toBe(404);
    expect((await p.call("/api/instances/route", { deliverTo: "C" })).status).toBe(400);
    await p.call("/api/instances/A/kill", {});
    await p.call("/api/instances/B/shutdown", {});
    const refused = await p.send("lost", "@baton anyone?");
    expect(refused.status).toBe(503);
    expect((await p.call("/api/instances")).body).toMatchObject({
      deliverTo: "alternate",
      lockTtlMs: LOCK_TTL_MS,
      sweepIntervalMs: SWEEP_INTERVAL_MS,
    });
  });

  it("refuses a message whose instance is killed before it answers, so the page retries it elsewhere", async () => {
    let die = () => {};
    const died = new Promise<void>((resolve) => {
      die = resolve;
    });
    // An instance whose State stopped answering mid-acceptance.
    const chat = { receiveMessage: () => new Promise(() => {}) } as unknown as Chat;
    const adapter = { name: "web" } as Adapter;
    const router = new InstanceRouter(
      () => ({ chat, adapter, died }),
      createMemoryState(),
      "baton",
      new ConsoleLogger("silent"),
    );
    const receiving = router.receiveMessage(adapter, "web:guest-aaaaaa:dm", () => {
      throw new Error("never parsed");
    });
    die();
    await expect(receiving).rejects.toBeInstanceOf(AdmissionRejectedError);
  });
});
