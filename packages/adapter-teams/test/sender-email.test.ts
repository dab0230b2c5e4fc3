import type { Message } from "@baton/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { teamsUserKey } from "../src/references.js";
import {
  SENDER_EMAIL_TIMEOUT_MS,
  SENDER_EMAIL_TTL_MS,
  senderEmailKey,
} from "../src/sender-email.js";
import { PERSONAL_CHAT, TENANT, type TeamsHarness, trackHarnesses } from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

const ALICE = {
  displayName: "Alice",
  mail: "alice@example.com",
  userPrincipalName: "alice@contoso.com",
};

/** A harness whose handlers record every message they get. */
async function recording() {
  const h = await harnesses.open();
  const seen: Message[] = [];
  h.chat.onNewMessage(/.*/, async (_thread, message) => {
    seen.push(message);
  });
  h.chat.onDirectMessage(async (_thread, message) => {
    seen.push(message);
  });
  return { h, seen };
}

/** A message from Alice (upstream's `29:user-123`), with or without her Entra object id. */
function fromAlice(h: TeamsHarness, aadObjectId?: string, extra: Record<string, unknown> = {}) {
  return h.message("Hello world", {
    from: { id: "29:user-123", name: "Alice", ...(aadObjectId ? { aadObjectId } : {}) },
    ...extra,
  });
}

const graphPaths = (h: TeamsHarness) => h.fake.graph.calls.map((call) => call.path);

// Ported from upstream packages/adapter-teams/src/index.test.ts (titles verbatim): upstream
// mocks the SDK's Graph client; here the fake Bot Framework's Graph answers.
describe("TeamsAdapter", () => {
  describe("incoming sender email", () => {
    it("hydrates email from the activity AAD object ID without cached state", async () => {
      const { h, seen } = await recording();
      h.fake.graph.addUser({ id: "activity-aad-id", ...ALICE });
      const get = vi.spyOn(h.state, "get");
      await h.deliver(fromAlice(h, "activity-aad-id"));
      expect(get).not.toHaveBeenCalledWith(teamsUserKey("29:user-123"));
      expect(graphPaths(h)).toEqual(["/v1.0/users/activity-aad-id"]);
      expect(seen[0]?.author.email).toBe("alice@example.com");
    });

    it("falls back to the cached AAD object ID", async () => {
      const { h, seen } = await recording();
      h.fake.graph.addUser({ id: "cached-aad-id", ...ALICE, mail: null });
      await h.state.set(teamsUserKey("29:user-123"), {
        serviceUrl: h.fake.serviceUrl,
        tenantId: TENANT,
        botId: h.bot.id,
        aadObjectId: "cached-aad-id",
      });
      await h.deliver(fromAlice(h));
      expect(graphPaths(h)).toEqual(["/v1.0/users/cached-aad-id"]);
      expect(seen[0]?.author.email).toBe("alice@contoso.com");
    });

    it("dispatches the message when Graph lookup fails", async () => {
      const { h, seen } = await recording();
      h.fake.graph.failNext({ status: 403, code: "Authorization_RequestDenied" });
      await h.deliver(fromAlice(h, "activity-aad-id"));
      expect(seen).toHaveLength(1);
      expect(seen[0]?.author.email).toBeUndefined();
    });

    it("caches the Graph lookup across messages", async () => {
      const { h, seen } = await recording();
      h.fake.graph.addUser({ id: "activity-aad-id", ...ALICE });
      await h.deliver(fromAlice(h, "activity-aad-id"));
      await h.deliver(fromAlice(h, "activity-aad-id"));
      expect(h.fake.graph.calls).toHaveLength(1);
      expect(seen[1]?.author.email).toBe("alice@example.com");
    });

    it("caches failed Graph lookups without retrying", async () => {
      const { h, seen } = await recording();
      h.fake.graph.failNext({ status: 403, code: "Authorization_RequestDenied" });
      await h.deliver(fromAlice(h, "activity-aad-id"));
      await h.deliver(fromAlice(h, "activity-aad-id"));
      expect(h.fake.graph.calls).toHaveLength(1);
      expect(seen).toHaveLength(2);
      expect(seen[1]?.author.email).toBeUndefined();
    });

    it("hydrates email on the DM path and completes processing", async () => {
      const { h, seen } = await recording();
      h.fake.graph.addUser({ id: "activity-aad-id", ...ALICE });
      const personal = { id: PERSONAL_CHAT, conversationType: "personal", tenantId: TENANT };
      const response = await h.deliver(fromAlice(h, "activity-aad-id", { conversation: personal }));
      expect(response.status).toBe(200);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.author.email).toBe("alice@example.com");
    });
  });
});

describe("incoming sender email (Baton)", () => {
  it("asks Graph again once the cached answer is older than SENDER_EMAIL_TTL_MS", async () => {
    const { h, seen } = await recording();
    h.fake.graph.failNext({ status: 403, code: "Authorization_RequestDenied" });
    await h.deliver(fromAlice(h, "activity-aad-id"));
    expect(await h.state.get(senderEmailKey("activity-aad-id"))).toEqual({ email: null });
    // The tenant grants User.Read.All; after the TTL the email shows.
    h.fake.graph.addUser({ id: "activity-aad-id", ...ALICE });
    await h.clock.advance(SENDER_EMAIL_TTL_MS);
    await h.deliver(fromAlice(h, "activity-aad-id"));
    expect(h.fake.graph.calls).toHaveLength(2);
    expect(seen.map((message) => message.author.email)).toEqual([undefined, "alice@example.com"]);
  });

  it("dispatches without an email when Graph does not answer within SENDER_EMAIL_TIMEOUT_MS", {
    timeout: 30_000,
  }, async () => {
    let graphScope: string | undefined;
    let mint: ((scope: string | string[]) => Promise<string>) | undefined;
    const h = await harnesses.open({
      // Graph's token never comes: the lookup hangs, as a Graph outage would.
      token: async (scope: string | string[]) => {
        if (String(scope) === graphScope) return new Promise<string>(() => {});
        if (mint === undefined) throw new Error("no fake yet");
        return mint(scope);
      },
    });
    graphScope = h.fake.graph.scope;
    mint = h.fake.tokenFactory();
    const seen: Message[] = [];
    h.chat.onNewMessage(/.*/, async (_thread, message) => {
      seen.push(message);
    });
    let answered = false;
    const delivered = h.deliver(fromAlice(h, "activity-aad-id")).finally(() => {
      answered = true;
    });
    // Once the lookup's timer is set, its time passes on the adapter's clock (never slept).
    while (!answered) {
      if (h.clock.pendingTimers > 0) await h.clock.advance(SENDER_EMAIL_TIMEOUT_MS);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await delivered).status).toBe(200);
    expect(seen.map((message) => message.author.email)).toEqual([undefined]);
    expect(await h.state.get(senderEmailKey("activity-aad-id"))).toEqual({ email: null });
  });

  it("keeps a user's stored Entra object id when a later activity carries none", async () => {
    const { h } = await recording();
    await h.deliver(fromAlice(h, "activity-aad-id"));
    await h.deliver(fromAlice(h));
    expect(await h.state.get(teamsUserKey("29:user-123"))).toMatchObject({
      aadObjectId: "activity-aad-id",
    });
  });

  it("never looks up the bot's own messages", async () => {
    const { h } = await recording();
    await h.deliver(h.message("echo", { from: { ...h.bot, aadObjectId: "bot-aad-id" } }));
    expect(h.fake.graph.calls).toEqual([]);
  });
});
