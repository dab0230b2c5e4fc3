import { AdmissionRejectedError, Message, StateError } from "@baton/core";
import { describe, expect, it } from "vitest";
import {
  createMockAdapter,
  createMockWebhookRequest,
  createTestMessage,
  MOCK_WEBHOOK_URL,
} from "../src/index.js";
import { createFakeChatHost } from "./fake-chat-host.js";

const THREAD = "mock:C123:T1";

async function setup() {
  const adapter = createMockAdapter();
  const host = createFakeChatHost();
  await adapter.initialize(host);
  return { adapter, host };
}

function post(body: string): Request {
  return new Request(MOCK_WEBHOOK_URL, { method: "POST", body });
}

describe("MockAdapter.handleWebhook", () => {
  it("hands a raw message to receiveMessage and answers 200 with its id and outcome", async () => {
    const { adapter, host } = await setup();
    const waitUntil = (_task: Promise<unknown>) => {};
    const response = await adapter.handleWebhook(
      createMockWebhookRequest({
        threadId: THREAD,
        message: { id: "m1", text: "hello bot", userId: "U9", isMention: true },
        tenantId: "T-ACME",
      }),
      { waitUntil },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ ok: true, messageId: "m1", outcome: "accepted" });
    expect(host.processed).toHaveLength(1);
    const [delivery] = host.processed;
    expect(delivery?.adapter).toBe(adapter);
    expect(delivery?.threadId).toBe(THREAD);
    expect(delivery?.message).toBeInstanceOf(Message);
    expect(delivery?.message.text).toBe("hello bot");
    expect(delivery?.message.author.userId).toBe("U9");
    expect(delivery?.message.isMention).toBe(true);
    expect(delivery?.options).toEqual({ waitUntil, tenantId: "T-ACME" });
  });

  it("accepts a message in its JSON form and keeps every field", async () => {
    const { adapter, host } = await setup();
    const original = createTestMessage({ text: "serialized", author: { userName: "ann" } });
    const response = await adapter.handleWebhook(
      createMockWebhookRequest({ threadId: THREAD, message: original }),
    );
    expect(response.status).toBe(200);
    expect(host.processed[0]?.message.toJSON()).toEqual(original.toJSON());
    expect(host.processed[0]?.options).toEqual({});
  });

  it("delivers a message to its own thread through deliver()", async () => {
    const { adapter, host } = await setup();
    const message = createTestMessage({ threadId: "mock:C5:T9", text: "via deliver" });
    const response = await adapter.deliver(message, { tenantId: "T1" });
    expect(response.status).toBe(200);
    expect(host.processed[0]?.threadId).toBe("mock:C5:T9");
    expect(host.processed[0]?.message.text).toBe("via deliver");
    expect(host.processed[0]?.options).toEqual({ tenantId: "T1" });
  });

  it.each([
    ["a body that is not JSON", "{not json", /^body is not valid JSON/],
    ["a JSON array", "[]", /^body must be a JSON object \{ threadId, message \}$/],
    [
      "a missing threadId",
      JSON.stringify({ message: { id: "1", text: "x" } }),
      /^threadId must be a string$/,
    ],
    ["a missing message", JSON.stringify({ threadId: THREAD }), /^message must be an object$/],
    [
      "another adapter's thread id",
      JSON.stringify({ threadId: "slack:C1:T1", message: { id: "1", text: "x" } }),
      /is not a thread id of adapter "mock"/,
    ],
    [
      "a message without text",
      JSON.stringify({ threadId: THREAD, message: { id: "1" } }),
      /text must be a string/,
    ],
    [
      "a message whose threadId contradicts the body",
      JSON.stringify({ threadId: THREAD, message: { id: "1", text: "x", threadId: "mock:C1:T2" } }),
      /^message.threadId "mock:C1:T2" differs from threadId "mock:C123:T1"$/,
    ],
    [
      "a tenantId that is not a string",
      JSON.stringify({ threadId: THREAD, message: { id: "1", text: "x" }, tenantId: 7 }),
      /^tenantId must be a string when given$/,
    ],
  ])("answers 400 with a clear error for %s, without dispatching", async (_, body, problem) => {
    const { adapter, host } = await setup();
    const response = await adapter.handleWebhook(post(body));
    expect(response.status).toBe(400);
    const json = (await response.json()) as { ok: boolean; error: string };
    expect(json.ok).toBe(false);
    expect(json.error).toMatch(problem);
    expect(host.processed).toEqual([]);
  });

  it("answers 503 with Retry-After in whole seconds when admission rejects the delivery", async () => {
    const { adapter, host } = await setup();
    host.rejectWith = new AdmissionRejectedError("instance", 1500, "at the admission bound");
    const response = await adapter.handleWebhook(
      createMockWebhookRequest({ threadId: THREAD, message: { id: "m1", text: "x" } }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toEqual({
      ok: false,
      code: "ADMISSION_REJECTED",
      error: "at the admission bound",
    });
  });

  it("answers 503 with Retry-After when the State fails, so the platform retries", async () => {
    const { adapter, host } = await setup();
    host.rejectWith = new StateError("unavailable", "redis is down", { step: "accept message" });
    const response = await adapter.handleWebhook(
      createMockWebhookRequest({ threadId: THREAD, message: { id: "m1", text: "x" } }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
  });

  it("answers 500 with the error text when receiveMessage fails otherwise", async () => {
    const { adapter, host } = await setup();
    host.rejectWith = new Error("state unreachable");
    const response = await adapter.handleWebhook(
      createMockWebhookRequest({ threadId: THREAD, message: { id: "m1", text: "x" } }),
    );
    expect(response.status).toBe(500);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(await response.json()).toEqual({
      ok: false,
      code: "INTERNAL",
      error: "state unreachable",
    });
  });

  it("answers 500 naming the fix when called before initialize", async () => {
    const adapter = createMockAdapter();
    const response = await adapter.handleWebhook(
      createMockWebhookRequest({ threadId: THREAD, message: { id: "m1", text: "x" } }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      ok: false,
      error: 'adapter "mock" is not initialized; call initialize(chat) first',
    });
  });

  it("answers 405 to a method other than POST", async () => {
    const { adapter, host } = await setup();
    const response = await adapter.handleWebhook(new Request(MOCK_WEBHOOK_URL));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(host.processed).toEqual([]);
  });
});
