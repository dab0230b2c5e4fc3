import { afterEach, describe, expect, it } from "vitest";
import { createTeamsAdapter } from "../src/index.js";
import { startFakeBotFramework } from "../src/testing/index.js";
import { PERSONAL_CHAT, TENANT, trackHarnesses, USER } from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

/** A harness where {@link USER} has written once, so their Entra object id is stored. */
async function afterUserWrote() {
  const harness = await harnesses.open();
  harness.chat.onNewMessage(/.*/, async () => {});
  const response = await harness.deliver(
    harness.message("hello", {
      conversation: { id: PERSONAL_CHAT, conversationType: "personal", tenantId: TENANT },
    }),
  );
  expect(response.status).toBe(200);
  // The write looked its sender's email up in Graph (test/sender-email.test.ts); these tests
  // count the calls getUser makes.
  harness.fake.graph.calls.splice(0);
  return harness;
}

describe("getUser", () => {
  it("should return user info when aadObjectId is cached and Graph call succeeds", async () => {
    const harness = await afterUserWrote();
    harness.fake.graph.addUser({
      id: USER.aadObjectId,
      displayName: "Ada Lovelace",
      mail: "ada@contoso.test",
      userPrincipalName: "ada@contoso.onmicrosoft.test",
    });
    expect(await harness.adapter.getUser(USER.id)).toEqual({
      userId: USER.id,
      userName: "Ada Lovelace",
      fullName: "Ada Lovelace",
      email: "ada@contoso.test",
      isBot: false,
    });
    expect(harness.fake.graph.calls.map((call) => call.path)).toEqual([
      `/v1.0/users/${USER.aadObjectId}`,
    ]);
  });

  it("should return null when aadObjectId is not cached", async () => {
    const harness = await harnesses.open();
    harness.fake.graph.addUser({ id: USER.aadObjectId, displayName: "Ada" });
    expect(await harness.adapter.getUser(USER.id)).toBeNull();
    expect(harness.fake.graph.calls).toEqual([]);
  });

  it("should return null when Graph call fails", async () => {
    const harness = await afterUserWrote();
    harness.fake.graph.failNext({ status: 403, code: "Authorization_RequestDenied" });
    expect(await harness.adapter.getUser(USER.id)).toBeNull();
    expect(harness.fake.graph.calls).toHaveLength(1);
  });

  it("should fall back to userPrincipalName when mail is missing", async () => {
    const harness = await afterUserWrote();
    harness.fake.graph.addUser({
      id: USER.aadObjectId,
      displayName: "Ada",
      mail: null,
      userPrincipalName: "ada@contoso.onmicrosoft.test",
    });
    expect(await harness.adapter.getUser(USER.id)).toMatchObject({
      email: "ada@contoso.onmicrosoft.test",
    });
  });

  it("should return null when adapter is not initialized", async () => {
    const fake = await startFakeBotFramework();
    try {
      const adapter = createTeamsAdapter({
        appId: fake.appId,
        token: fake.tokenFactory(),
        cloud: fake.cloud,
      });
      expect(await adapter.getUser(USER.id)).toBeNull();
      expect(fake.graph.calls).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("mints the Graph token for the user's tenant once and reuses it (Baton)", async () => {
    let mint: ((scope: string | string[]) => Promise<string>) | undefined;
    const asked: Array<[string, string | undefined]> = [];
    const harness = await harnesses.open({
      token: async (scope: string | string[], tenantId?: string) => {
        asked.push([String(scope), tenantId]);
        if (mint === undefined) throw new Error("no fake yet");
        return mint(scope);
      },
    });
    mint = harness.fake.tokenFactory();
    harness.chat.onNewMessage(/.*/, async () => {});
    await harness.deliver(
      harness.message("hello", {
        conversation: { id: PERSONAL_CHAT, conversationType: "personal", tenantId: "tenant-2" },
      }),
    );
    harness.fake.graph.addUser({ id: USER.aadObjectId, displayName: "Ada" });
    await harness.adapter.getUser(USER.id);
    await harness.adapter.getUser(USER.id);
    const graphMints = asked.filter(([scope]) => scope === harness.fake.graph.scope);
    expect(graphMints).toEqual([[harness.fake.graph.scope, "tenant-2"]]);
    // The message's sender-email lookup and both getUser calls share that one token.
    expect(harness.fake.graph.calls).toHaveLength(3);
  });
});
