import { randomBytes } from "node:crypto";
import { ConfigError, type JsonValue } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import type { SlackAdapterConfig } from "../src/index.js";
import type { FakeSlackWorkspace } from "../src/testing/index.js";
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
