import { ConfigError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createSlackAdapter } from "../src/index.js";
import { A, B, closeHarnessesAfterEach, multi, tracked } from "./installs-fixtures.js";

closeHarnessesAfterEach();

/** The `x-tenant-route` header each `chat.postMessage` reached the fake Slack with. */
function routes(h: Awaited<ReturnType<typeof tracked>>): unknown[] {
  return h.fake.callsOf("chat.postMessage").map((call) => call.headers["x-tenant-route"]);
}

describe("webClientOptions", () => {
  it("forwards webClientOptions to the internal WebClient", async () => {
    const h = await tracked({
      webClientOptions: { headers: { "x-tenant-route": "eu-1" }, timeout: 4_321 },
    });
    await h.adapter.postMessage("slack:C0AAA00001:", "hello");
    expect(routes(h)).toEqual(["eu-1"]);
    expect(h.adapter.client.token).toBe(h.fake.botToken);
  });

  it("forwards webClientOptions to token-bound WebClients", async () => {
    const h = await multi({ webClientOptions: { headers: { "x-tenant-route": "eu-1" } } });
    await h.adapter.withBotToken(A.botToken, () =>
      h.adapter.postMessage("slack:C0AAA00001:", "for A"),
    );
    await h.adapter.withBotToken(B.botToken, () =>
      h.adapter.postMessage("slack:C0BBB00001:", "for B"),
    );
    expect(routes(h)).toEqual(["eu-1", "eu-1"]);
    expect(h.fake.callsOf("chat.postMessage").map((call) => call.token)).toEqual([
      A.botToken,
      B.botToken,
    ]);
  });

  it("isolates custom headers between token-bound WebClients", async () => {
    // WebClient writes its token into the headers object it is given (Authorization), so one
    // object shared by two workspaces' clients would send the first workspace's token for both.
    const headers = { "x-tenant-route": "eu-1" };
    const h = await multi({ webClientOptions: { headers } });
    for (const [workspace, channel] of [
      [A, "C0AAA00001"],
      [B, "C0BBB00001"],
      [A, "C0AAA00002"],
    ] as const) {
      await h.adapter.withBotToken(workspace.botToken, () =>
        h.adapter.postMessage(`slack:${channel}:`, "hi"),
      );
    }
    const posts = h.fake.callsOf("chat.postMessage");
    expect(posts.map((call) => call.headers.authorization)).toEqual([
      `Bearer ${A.botToken}`,
      `Bearer ${B.botToken}`,
      `Bearer ${A.botToken}`,
    ]);
    expect(routes(h)).toEqual(["eu-1", "eu-1", "eu-1"]);
    expect(headers).toEqual({ "x-tenant-route": "eu-1" });
  });

  it("keeps apiUrl and retryConfig over the same settings in webClientOptions (Baton)", async () => {
    const h = await tracked({
      webClientOptions: { slackApiUrl: "http://127.0.0.1:9/api/", retryConfig: { retries: 7 } },
      retryConfig: { retries: 0 },
    });
    // apiUrl (the fake's) wins: the post reaches the fake instead of the dead port.
    await h.adapter.postMessage("slack:C0AAA00001:", "hello");
    expect(h.fake.callsOf("chat.postMessage")).toHaveLength(1);
    expect(h.adapter.client.slackApiUrl).toBe(h.fake.apiUrl);
  });

  it("refuses webClientOptions that are not an object, naming the field (Baton)", () => {
    const create = (webClientOptions: unknown) => () =>
      createSlackAdapter({ signingSecret: "s", botToken: "xoxb-1", webClientOptions } as never);
    for (const bad of [null, "timeout=5", [1]]) {
      expect(create(bad)).toThrow(ConfigError);
      expect(create(bad)).toThrow(/webClientOptions must be an object/);
    }
  });
});
