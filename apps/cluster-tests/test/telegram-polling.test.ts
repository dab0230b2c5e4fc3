import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startFakeTelegram, TelegramUpdateBuilder } from "@baton/adapter-telegram/testing";
import { afterEach, describe, expect, it } from "vitest";
import { assertReachable, dropBackend, isolatedBackend } from "../src/backends.js";
import { pause, waitFor } from "../src/cluster.js";

const WORKER = fileURLToPath(new URL("../src/telegram-poll-worker.ts", import.meta.url));
const APP_DIR = fileURLToPath(new URL("..", import.meta.url));
const LEASE_TTL_MS = 2_000;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  cleanup = [];
});

interface Handled {
  readonly worker: string;
  readonly text: string;
}

async function startPoller(name: string, env: Record<string, unknown>, handled: Handled[]) {
  const child: ChildProcess = fork(WORKER, [], {
    execArgv: ["--conditions=@baton/source", "--import", "tsx"],
    env: { ...process.env, BATON_TELEGRAM_WORKER_CONFIG: JSON.stringify({ name, ...env }) },
    cwd: APP_DIR,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.on("message", (message: { type: string; worker: string; text?: string }) => {
      if (message.type === "ready") resolve();
      if (message.type === "handled")
        handled.push({ worker: message.worker, text: String(message.text) });
    });
    exited.then(() => reject(new Error(`${name} exited before ready`)));
  });
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.send({ type: "stop" });
      await Promise.race([exited, pause(5_000)]);
      child.kill("SIGKILL");
    }
  });
  return { name, child, exited };
}

describe("Telegram long polling on 3 processes sharing one Redis", () => {
  it("handles a stream of updates exactly once and in order, also when the polling holder is SIGKILLed", async () => {
    const backend = isolatedBackend("redis");
    await assertReachable(backend);
    cleanup.push(() => dropBackend(backend));
    const fake = await startFakeTelegram();
    cleanup.push(() => fake.close());
    const handled: Handled[] = [];
    const env = {
      apiUrl: fake.url,
      botToken: fake.token,
      redisUrl: backend.kind === "redis" ? backend.url : "",
      keyPrefix: backend.kind === "redis" ? backend.keyPrefix : "",
      leaseTtlMs: LEASE_TTL_MS,
    };
    const pollers = [];
    for (const name of ["p0", "p1", "p2"]) pollers.push(await startPoller(name, env, handled));
    const updates = new TelegramUpdateBuilder(fake.botUserName);
    const texts = Array.from({ length: 30 }, (_, index) => `m${String(index).padStart(2, "0")}`);

    for (const text of texts.slice(0, 10)) {
      fake.enqueueUpdate(updates.message(text));
      await pause(30);
    }
    await waitFor("the first 10 updates", () => handled.length >= 10, 15_000);
    const holders = new Set(handled.map((entry) => entry.worker));
    expect(holders.size).toBe(1);
    expect(fake.pollConflicts).toBe(0);

    const holder = pollers.find((poller) => holders.has(poller.name));
    holder?.child.kill("SIGKILL");
    await holder?.exited;
    const killedAt = Date.now();
    for (const text of texts.slice(10)) {
      fake.enqueueUpdate(updates.message(text));
      await pause(30);
    }
    await waitFor("all 30 updates", () => handled.length >= 30, LEASE_TTL_MS + 15_000);
    await pause(500);

    expect(handled.map((entry) => entry.text)).toEqual(texts);
    const after = handled.slice(10);
    expect(after.every((entry) => entry.worker !== holder?.name)).toBe(true);
    expect(new Set(after.map((entry) => entry.worker)).size).toBe(1);
    expect(Date.now() - killedAt).toBeLessThan(LEASE_TTL_MS + 15_000);
  }, 60_000);
});
