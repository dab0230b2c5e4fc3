import { ConfigError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createSlackAdapter } from "../src/index.js";
import { A, closeHarnessesAfterEach, tracked } from "./installs-fixtures.js";

closeHarnessesAfterEach();

const DEFAULT_FAKE_TOKEN = "xoxb-fake-bot-token";

describe("botToken given as a function", () => {
  it("uses a synchronous botToken resolver", async () => {
    const h = await tracked({ botToken: () => DEFAULT_FAKE_TOKEN });
    expect(h.fake.botToken).toBe(DEFAULT_FAKE_TOKEN);
    expect(h.adapter.client.token).toBe(DEFAULT_FAKE_TOKEN);
    await h.adapter.postMessage("slack:C0AAA00001:", "hello");
    expect(h.fake.callsOf("chat.postMessage").map((call) => call.token)).toEqual([
      DEFAULT_FAKE_TOKEN,
    ]);
  });

  it("reads the resolver at every call, so a rotated token is used from the next call on (Baton)", async () => {
    let current = DEFAULT_FAKE_TOKEN;
    const h = await tracked({ botToken: () => current });
    h.fake.addWorkspace(A);
    await h.adapter.postMessage("slack:C0AAA00001:", "before");
    current = A.botToken;
    await h.adapter.postMessage("slack:C0AAA00001:", "after");
    expect(h.fake.callsOf("chat.postMessage").map((call) => call.token)).toEqual([
      DEFAULT_FAKE_TOKEN,
      A.botToken,
    ]);
    expect(h.adapter.client.token).toBe(A.botToken);
  });

  it("throws when botToken is configured as an async resolver", () => {
    expect(() =>
      createSlackAdapter({
        signingSecret: "s",
        botToken: (async () => DEFAULT_FAKE_TOKEN) as unknown as () => string,
      }),
    ).toThrow(ConfigError);
    expect(() =>
      createSlackAdapter({
        signingSecret: "s",
        botToken: (async () => DEFAULT_FAKE_TOKEN) as unknown as () => string,
      }),
    ).toThrow(/botToken must not be an async function/);
  });

  it("refuses a resolver's Promise or non-token at use, naming what it returned (Baton)", () => {
    const promising = createSlackAdapter({
      signingSecret: "s",
      botToken: (() => Promise.resolve(DEFAULT_FAKE_TOKEN)) as unknown as () => string,
    });
    expect(() => promising.client).toThrow(/returned a Promise; it must return the token/);
    const empty = createSlackAdapter({ signingSecret: "s", botToken: () => "" });
    expect(() => empty.client).toThrow(/returned an empty string, not a token/);
    expect(() =>
      createSlackAdapter({ signingSecret: "s", botToken: 42 as unknown as string }),
    ).toThrow(/botToken must be a string \(xoxb-…\) or a function returning one/);
  });

  it("re-resolves the default provider at fetch time in single-workspace mode", async () => {
    let current = DEFAULT_FAKE_TOKEN;
    const h = await tracked({ botToken: () => current }, { dispatch: "sync" });
    h.fake.addWorkspace(A);
    // Downloadable with workspace A's token only: the one in force when the handler fetches.
    h.fake.store.downloads.set("/files/rotated.txt", {
      bytes: new TextEncoder().encode("fresh"),
      mimeType: "text/plain",
      token: A.botToken,
    });
    const downloaded: string[] = [];
    h.chat.onNewMessage(/notes/, async (_thread, message) => {
      current = A.botToken;
      const data = await message.attachments[0]?.fetchData?.();
      downloaded.push(new TextDecoder().decode(data));
    });
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "file_share",
        channel: "C456",
        user: "U123",
        text: "the notes",
        ts: "1700000000.000300",
        files: [
          {
            id: "F10",
            name: "rotated.txt",
            mimetype: "text/plain",
            url_private: `${h.fake.url}/files/rotated.txt`,
          },
        ],
      }),
    );
    await h.settle();
    expect(downloaded).toEqual(["fresh"]);
  });
});
