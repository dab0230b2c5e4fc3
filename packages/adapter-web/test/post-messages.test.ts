import { sleep, systemClock } from "@baton/core";
import { describe, expect, it } from "vitest";
import { BASE_URL, createWebHarness } from "./web-harness.js";

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("POST …/messages", () => {
  it("accepts a message, answers 202 with its id and outcome, and hands it to the handler", async () => {
    const h = await createWebHarness();
    const seen: string[] = [];
    h.chat.onDirectMessage(async (thread, message) => {
      seen.push(`${thread.id} ${message.author.userId} ${message.text}`);
    });
    const { status, body } = await answer(await h.post("alice|Alice", { text: "hello" }));
    expect(status).toBe(202);
    expect(body).toMatchObject({ ok: true, threadId: "web:alice:dm", outcome: "accepted" });
    expect(body.messageId).toMatch(/^alice\./);
    await expect.poll(() => seen).toEqual(["web:alice:dm alice hello"]);
    await h.chat.shutdown();
  });

  it("answers 200 with the final outcome under sync dispatch", async () => {
    const h = await createWebHarness({ chat: { dispatch: "sync" } });
    h.chat.onNewMention(async () => {});
    const response = await h.post("alice", { threadId: "web:alice:general", text: "@bot hi" });
    expect(await answer(response)).toMatchObject({ status: 200, body: { outcome: "handled" } });
    await h.chat.shutdown();
  });

  it("refuses a request without an identity with 401, before reading the body", async () => {
    const h = await createWebHarness();
    let ran = false;
    h.chat.onDirectMessage(async () => {
      ran = true;
    });
    const response = await h.post(null, "not even JSON");
    expect(await answer(response)).toMatchObject({
      status: 401,
      body: { ok: false, code: "UNAUTHENTICATED" },
    });
    expect(ran).toBe(false);
    expect((await h.web.fetchMessages("web:alice:dm")).messages).toEqual([]);
    await h.chat.shutdown();
  });

  it.each([
    ["a body that is not JSON", "{text", "INVALID_BODY", "not valid JSON"],
    ["an array", [], "INVALID_BODY", "JSON object"],
    ["a missing text", { threadId: "web:alice:dm" }, "INVALID_BODY", "text is required"],
    ["a text that is not a string", { text: 42 }, "INVALID_BODY", "text must be a string"],
    ["a blank text", { text: "  \n " }, "INVALID_BODY", "must not be blank"],
    ["an unknown field", { text: "hi", threadID: "x" }, "INVALID_BODY", '"threadID"'],
    ["a malformed thread id", { text: "hi", threadId: "web:alice" }, "INVALID_BODY", "thread id"],
    ["another adapter's thread", { text: "hi", threadId: "slack:C1:T1" }, "INVALID_BODY", "web"],
    ["a bad client id", { text: "hi", id: "a b" }, "INVALID_BODY", "id must be"],
  ])("refuses %s with 400 and says what is wrong", async (_what, body, code, words) => {
    const h = await createWebHarness();
    const { status, body: answered } = await answer(await h.post("alice", body));
    expect(status).toBe(400);
    expect(answered).toMatchObject({ ok: false, code });
    expect(String(answered.error)).toContain(words);
    await h.chat.shutdown();
  });

  it("refuses a post to another user's thread with 403", async () => {
    const h = await createWebHarness();
    const response = await h.post("mallory", { threadId: "web:alice:dm", text: "hi" });
    expect(await answer(response)).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    expect((await h.web.fetchMessages("web:alice:dm")).messages).toEqual([]);
    await h.chat.shutdown();
  });

  it("refuses a body over the byte limit with 413, by its content-length", async () => {
    const h = await createWebHarness({ adapter: { maxBodyBytes: 100 } });
    const response = await h.post("alice", { text: "x".repeat(200) });
    expect(await answer(response)).toMatchObject({ status: 413, body: { code: "BODY_TOO_LARGE" } });
    await h.chat.shutdown();
  });

  it("refuses a streamed body over the byte limit with 413 without reading it all", async () => {
    const h = await createWebHarness({ adapter: { maxBodyBytes: 1_000 } });
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        // An endless body: only a reader that stops at the limit ever finishes.
        controller.enqueue(new TextEncoder().encode("x".repeat(400)));
      },
    });
    const response = await h.post("alice", undefined, { body, duplex: "half" } as RequestInit);
    expect(await answer(response)).toMatchObject({ status: 413, body: { code: "BODY_TOO_LARGE" } });
    expect(pulled).toBeLessThan(10);
    await h.chat.shutdown();
  });

  it("refuses a text over the character limit with 413, counting characters not bytes", async () => {
    const h = await createWebHarness({ adapter: { maxTextLength: 5 } });
    const fits = await h.post("alice", { text: "héllo" });
    expect(fits.status).toBe(202);
    const response = await h.post("alice", { text: "hello!" });
    expect(await answer(response)).toMatchObject({ status: 413, body: { code: "TEXT_TOO_LONG" } });
    await h.chat.shutdown();
  });

  it("refuses a body that is not declared as JSON with 415", async () => {
    const h = await createWebHarness();
    const response = await h.post(
      "alice",
      { text: "hi" },
      { headers: { "content-type": "text/plain" } },
    );
    expect(await answer(response)).toMatchObject({
      status: 415,
      body: { code: "UNSUPPORTED_MEDIA_TYPE" },
    });
    await h.chat.shutdown();
  });

  it("answers 405 for a wrong method and 404 for a path it does not serve", async () => {
    const h = await createWebHarness();
    const get = await h.chat.webhooks.web?.(new Request(`${BASE_URL}/messages`));
    expect(get?.status).toBe(405);
    expect(get?.headers.get("allow")).toBe("POST");
    const other = await h.chat.webhooks.web?.(
      new Request(`${BASE_URL}/elsewhere`, { method: "POST" }),
    );
    expect(other?.status).toBe(404);
    await h.chat.shutdown();
  });

  it("answers 500 without details when identify throws or returns an unusable identity, and logs why", async () => {
    const logged: unknown[][] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (...args: unknown[]) => logged.push(args),
    };
    const h = await createWebHarness({
      chat: { logger },
      adapter: {
        identify: (request) => {
          if (request.headers.get("x-user") === "boom") throw new Error("session store down");
          return { userId: "has:colon", userName: "x" };
        },
      },
    });
    const thrown = await answer(await h.post("boom", { text: "hi" }));
    expect(thrown).toMatchObject({ status: 500, body: { code: "IDENTIFY_FAILED" } });
    expect(JSON.stringify(thrown.body)).not.toContain("session store");
    const unusable = await answer(await h.post("someone", { text: "hi" }));
    expect(unusable).toMatchObject({ status: 500, body: { code: "IDENTIFY_FAILED" } });
    expect(String((logged[0]?.[1] as { error: unknown }).error)).toContain("session store down");
    expect(String((logged[1]?.[1] as { error: unknown }).error)).toContain("identify must return");
    await h.chat.shutdown();
  });

  it("makes a retried post with the same client id a duplicate, kept once", async () => {
    const h = await createWebHarness();
    let runs = 0;
    h.chat.onDirectMessage(async () => {
      runs += 1;
    });
    const first = await answer(await h.post("alice", { text: "once", id: "c1" }));
    const retry = await answer(await h.post("alice", { text: "once", id: "c1" }));
    expect(first.body).toMatchObject({ outcome: "accepted", messageId: "alice.c1" });
    expect(retry).toMatchObject({
      status: 200,
      body: { outcome: "duplicate", messageId: "alice.c1" },
    });
    await expect.poll(() => runs).toBe(1);
    const kept = await h.web.fetchMessages("web:alice:dm");
    expect(kept.messages.map((message) => message.text)).toEqual(["once"]);
    await h.chat.shutdown();
  });

  it("answers 503 with Retry-After while no Chat is attached, and after shutdown", async () => {
    const h = await createWebHarness();
    await h.chat.shutdown();
    const response = await h.web.handleWebhook(
      new Request(`${BASE_URL}/messages`, {
        method: "POST",
        headers: { "x-user": "alice", "content-type": "application/json" },
        body: JSON.stringify({ text: "hi" }),
      }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ code: "NOT_READY" });
  });

  it("answers 503 with Retry-After when the runtime is at its admission bound", async () => {
    const h = await createWebHarness({ chat: { maxDetached: 1, concurrency: "concurrent" } });
    const release = new AbortController();
    h.chat.onDirectMessage(async () => {
      await sleep(systemClock, 60_000, release.signal).catch(() => {});
    });
    expect((await h.post("alice", { text: "first" })).status).toBe(202);
    const second = await h.post("alice", { text: "second" });
    expect(second.status).toBe(503);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await second.json()).toMatchObject({ code: "ADMISSION_REJECTED" });
    const kept = await h.web.fetchMessages("web:alice:dm");
    expect(kept.messages.map((message) => message.text)).toEqual(["first"]);
    release.abort();
    await h.chat.shutdown();
  });

  it("counts each user as a tenant, so a per-tenant bound stops one user and not another", async () => {
    const h = await createWebHarness({
      chat: { maxDetachedPerTenant: 1, concurrency: "concurrent" },
    });
    const release = new AbortController();
    h.chat.onDirectMessage(async () => {
      await sleep(systemClock, 60_000, release.signal).catch(() => {});
    });
    expect((await h.post("alice", { text: "first" })).status).toBe(202);
    expect((await h.post("alice", { text: "second" })).status).toBe(503);
    expect((await h.post("bob", { text: "bob's first" })).status).toBe(202);
    release.abort();
    await h.chat.shutdown();
  });

  it("ignores a message the bot itself sent: no handler runs", async () => {
    const h = await createWebHarness();
    const seen: string[] = [];
    h.chat.onDirectMessage(async (_thread, message) => {
      seen.push(message.text);
    });
    const self = await answer(
      await h.post("bot", { threadId: "web:bot:dm", text: "echo of my post" }),
    );
    expect(self.body).toMatchObject({ outcome: "ignored", reason: "self message" });
    await h.post("bot", { threadId: "web:bot:dm", text: "again" });
    const user = await h.post("alice", { text: "from a person" });
    expect(user.status).toBe(202);
    await expect.poll(() => seen).toEqual(["from a person"]);
    await h.chat.shutdown();
  });
});
