/**
 * A multi-workspace app's queued message keeps its installation: when it runs outside the
 * delivery that brought it (drained by the sweeper, another instance, after a restart), its
 * handler still calls Slack with that workspace's token.
 */
import { describe, expect, it } from "vitest";
import {
  A,
  B,
  CLIENT,
  closeHarnessesAfterEach,
  install,
  mention,
  tokensOf,
  tracked,
} from "./installs-fixtures.js";

closeHarnessesAfterEach();

const SWEEP_MS = 1_000;

async function queueingApp() {
  const h = await tracked(
    { botToken: undefined, ...CLIENT },
    { concurrency: { strategy: "queue", sweepIntervalMs: SWEEP_MS } },
  );
  h.fake.addWorkspace(A);
  h.fake.addWorkspace(B);
  await h.adapter.setInstallation(A.teamId, install(A));
  await h.adapter.setInstallation(B.teamId, install(B));
  return h;
}

/** Lets the sweeper's drain (a chain of State calls and a handler) run to its end. */
async function drainPasses(h: Awaited<ReturnType<typeof queueingApp>>) {
  await h.clock.advance(SWEEP_MS);
  for (let round = 0; round < 50; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe("queued messages of a multi-workspace app", () => {
  it("runs a message the sweeper drains with its installation's token", async () => {
    const h = await queueingApp();
    const seen: Array<{ text: string; isMe: boolean }> = [];
    h.chat.onNewMention(async (thread, message) => {
      seen.push({ text: message.text, isMe: message.author.isMe });
      await thread.post("answered later");
    });
    const event = mention(h, B, "C0BBB00001");
    const lockKey = `thread:slack:C0BBB00001:${(event.event as { ts: string }).ts}`;
    // Another instance holds the thread: the delivery is queued, and that instance dies.
    const held = await h.state.acquireLock(lockKey, 60_000);
    expect(held).not.toBeNull();
    expect((await h.deliver(event)).status).toBe(200);
    expect(seen).toHaveLength(0);
    await h.state.releaseLock(held as NonNullable<typeof held>);

    await drainPasses(h);

    expect(seen).toHaveLength(1);
    expect(tokensOf(h, "chat.postMessage")).toEqual([B.botToken]);
    expect(h.fake.callsOf("chat.postMessage")[0]?.args).toMatchObject({
      channel: "C0BBB00001",
      text: "answered later",
    });
  });

  it("runs it without a token, failing its calls by name, when the installation is gone", async () => {
    const h = await queueingApp();
    const failures: unknown[] = [];
    h.chat.onNewMention(async (thread) => {
      await thread.post("answered later").catch((error: unknown) => {
        failures.push(error);
      });
    });
    const event = mention(h, A, "C0AAA00001");
    const lockKey = `thread:slack:C0AAA00001:${(event.event as { ts: string }).ts}`;
    const held = await h.state.acquireLock(lockKey, 60_000);
    await h.deliver(event);
    await h.adapter.deleteInstallation(A.teamId);
    await h.state.releaseLock(held as NonNullable<typeof held>);

    await drainPasses(h);

    expect(tokensOf(h, "chat.postMessage")).toEqual([]);
    expect(String(failures[0])).toMatch(/no bot token to call chat\.postMessage/);
  });
});
