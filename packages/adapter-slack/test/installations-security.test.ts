import { randomBytes } from "node:crypto";
import { ConfigError, type JsonValue, type StateAdapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type SlackAdapterConfig, SlackInstallations } from "../src/index.js";
import type { FakeSlackWorkspace } from "../src/testing/index.js";
import { closeHarnesses, mention, multi as multiWorkspace } from "./installs-fixtures.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const A: FakeSlackWorkspace = {
  teamId: "T0AAAAAAA1",
  botToken: "xoxb-team-a",
  botUserId: "U0BOTA0001",
};
const B: FakeSlackWorkspace = {
  teamId: "T0BBBBBBB1",
  botToken: "xoxb-team-b",
  botUserId: "U0BOTB0001",
};
const CLIENT = { clientId: "fake-client-id", clientSecret: "fake-client-secret" };
const encryptionKey = randomBytes(32).toString("base64");

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function multi(config: Partial<SlackAdapterConfig> = {}) {
  const h = await createSlackHarness({ botToken: undefined, ...CLIENT, ...config });
  h.fake.addWorkspace(A);
  h.fake.addWorkspace(B);
  harnesses.push(h);
  return h;
}

describe("encrypted installations (Baton)", () => {
  it("a record copied under another workspace's key fails to decrypt", async () => {
    const h = await multi({ encryptionKey });
    await h.adapter.setInstallation(A.teamId, { botToken: A.botToken });
    const storedA = await h.state.get<JsonValue>(`slack:installation:${A.teamId}`);
    await h.state.set(`slack:installation:${B.teamId}`, storedA as JsonValue);
    await expect(h.adapter.getInstallation(B.teamId)).rejects.toThrow();
    expect((await h.adapter.getInstallation(A.teamId))?.botToken).toBe(A.botToken);
  });

  it("refuses a plaintext token in the State when an encryptionKey is set", async () => {
    const h = await multi({ encryptionKey });
    await h.state.set(`slack:installation:${A.teamId}`, { botToken: "xoxb-planted" });
    const read = h.adapter.getInstallation(A.teamId);
    await expect(read).rejects.toThrow(ConfigError);
    await expect(h.adapter.getInstallation(A.teamId)).rejects.toThrow(/plaintext bot token/);
  });
});

describe("installation cache races (Baton)", () => {
  /** A memory State whose next get() waits for `release()` after reading, like a slow network. */
  async function gatedState() {
    const clock = createFakeClock();
    const state = createMemoryState({ clock });
    await state.connect();
    let gate: Promise<void> | undefined;
    let release = () => {};
    const wrapped = new Proxy(state, {
      get(target, prop, receiver) {
        if (prop === "get") {
          return async (key: string) => {
            const value = await target.get(key);
            if (gate !== undefined) await gate;
            return value;
          };
        }
        const member = Reflect.get(target, prop, receiver);
        return typeof member === "function" ? member.bind(target) : member;
      },
    });
    const hold = () => {
      gate = new Promise<void>((resolve) => {
        release = () => {
          gate = undefined;
          resolve();
        };
      });
    };
    return { state: wrapped as StateAdapter, clock, hold, release: () => release() };
  }

  function storeOver(g: { state: StateAdapter; clock: ReturnType<typeof createFakeClock> }) {
    return new SlackInstallations({
      state: () => g.state,
      keyPrefix: "slack:installation",
      key: undefined,
      provider: undefined,
      clock: g.clock,
    });
  }

  it("a read racing a delete is not cached: the next resolve sees the uninstall", async () => {
    const g = await gatedState();
    await g.state.set(`slack:installation:${A.teamId}`, { botToken: A.botToken });
    const fresh = storeOver(g);
    g.hold();
    const racing = fresh.resolve(A.teamId, false);
    await new Promise((resolve) => setImmediate(resolve));
    await fresh.delete(A.teamId);
    g.release();
    expect((await racing)?.botToken).toBe(A.botToken);
    expect(await fresh.resolve(A.teamId, false)).toBeNull();
  });

  it("hands out copies: mutating a resolved installation does not change the cached one", async () => {
    const installs = storeOver(await gatedState());
    await installs.set(A.teamId, { botToken: A.botToken });
    const first = await installs.resolve(A.teamId, false);
    if (first === null) throw new Error("expected an installation");
    first.botToken = "xoxb-mutated";
    expect((await installs.resolve(A.teamId, false))?.botToken).toBe(A.botToken);
  });
});

describe("OAuth callback hardening (Baton)", () => {
  const callback = (query: string) =>
    new Request(`https://bot.example/slack/oauth/callback?${query}`);

  it("verifyState refusing the state stops the exchange and saves nothing", async () => {
    const h = await multi();
    h.fake.grantInstall("code-a", A);
    const seen: Array<string | null> = [];
    const verifyState = (state: string | null) => {
      seen.push(state);
      return state === "expected";
    };
    await expect(
      h.adapter.handleOAuthCallback(callback("code=code-a&state=forged"), { verifyState }),
    ).rejects.toThrow(/verifyState/);
    expect(h.fake.callsOf("oauth.v2.access")).toEqual([]);
    expect(await h.adapter.getInstallation(A.teamId)).toBeNull();
    const result = await h.adapter.handleOAuthCallback(callback("code=code-a&state=expected"), {
      verifyState: async (state) => verifyState(state),
    });
    expect(result.teamId).toBe(A.teamId);
    expect(seen).toEqual(["forged", "expected"]);
  });

  it("refuses a rotating token instead of storing one that expires", async () => {
    const h = await multi();
    h.fake.grantInstall("code-r", { ...A, tokenRotation: true });
    await expect(h.adapter.handleOAuthCallback(callback("code=code-r"))).rejects.toThrow(
      /token rotation is not supported/,
    );
    expect(await h.adapter.getInstallation(A.teamId)).toBeNull();
  });
});

describe("installation cache and dead tokens (Baton)", () => {
  afterEach(closeHarnesses);

  it("a token Slack refuses (invalid_auth) is dropped from the cache: the next delivery reads the State", async () => {
    const h = await multiWorkspace();
    await h.adapter.setInstallation(A.teamId, { botToken: "xoxb-dead", botUserId: A.botUserId });
    const outcomes: string[] = [];
    h.chat.onNewMention(async (thread) => {
      try {
        await thread.post("hi");
        outcomes.push("posted");
      } catch (error) {
        outcomes.push((error as { slackError?: string }).slackError ?? String(error));
      }
    });
    await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    // Another process re-installed the workspace: only the State has the live token.
    await h.state.set(`slack:installation:${A.teamId}`, {
      botToken: A.botToken,
      botUserId: A.botUserId as string,
    });
    await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    expect(outcomes).toEqual(["invalid_auth", "posted"]);
  });
});

describe("refused installation records are logged (Baton)", () => {
  it("a delivery whose installation holds a plaintext token under a key is refused and logged", async () => {
    const errors: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (message: string, ...args: unknown[]) => {
        errors.push(`${message} ${JSON.stringify(args)}`);
      },
      child: () => logger,
    };
    const h = await createSlackHarness(
      { botToken: undefined, ...CLIENT, encryptionKey },
      { logger },
    );
    harnesses.push(h);
    h.fake.addWorkspace(A);
    const seen: string[] = [];
    h.chat.onNewMention((thread) => {
      seen.push(thread.id);
    });
    await h.state.set(`slack:installation:${A.teamId}`, { botToken: A.botToken });
    const response = await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    expect(response.status).not.toBe(200);
    expect(seen).toEqual([]);
    expect(errors.join("\n")).toMatch(/could not be read.*plaintext bot token/);
  });
});
