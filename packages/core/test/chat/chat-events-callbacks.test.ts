import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Actions, Button, Card } from "../../src/content/index.js";
import type { ActionHandlerEvent, Thread } from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";
import {
  actionEvent,
  emptyModal,
  recordingLogger,
  slashCommandEvent,
  THREAD,
} from "./chat-interactions-harness.js";

// Upstream's bodies for these titles are not in the copy of chat.test.ts available to us: the
// inputs here are ours, and the assertions check what upstream 4.x's runtime does (its payloads,
// fire-and-forget submit POSTs, errors logged and never thrown).

/**
 * A real HTTP receiver on 127.0.0.1 standing in for a callback URL. It answers `status`, or
 * holds every answer until `release()` when created held; `nextRequest()` resolves at the next
 * request it receives, so a test can wait for a POST without sleeping.
 */
async function callbackReceiver(options: { status?: number; held?: boolean } = {}) {
  const bodies: unknown[] = [];
  const waiting: Array<() => void> = [];
  const pending: ServerResponse[] = [];
  let held = options.held ?? false;
  const answer = (response: ServerResponse) => {
    response.writeHead(options.status ?? 200, { "content-type": "text/plain" });
    response.end(options.status && options.status >= 300 ? "receiver failed" : "ok");
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      bodies.push(JSON.parse(body));
      for (const wake of waiting.splice(0)) wake();
      if (held) pending.push(response);
      else answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver = {
    url: `http://127.0.0.1:${port}/callback`,
    bodies,
    nextRequest: () => new Promise<void>((resolve) => waiting.push(resolve)),
    release() {
      held = false;
      for (const response of pending.splice(0)) answer(response);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  receivers.push(receiver);
  return receiver;
}

const receivers: Array<{ release(): void; close(): Promise<void> }> = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) {
    receiver.release();
    await receiver.close();
  }
});

/** Posts a card with one callback button to {@link THREAD}; returns the value it was posted with. */
async function postCallbackButton(
  h: Awaited<ReturnType<typeof createChatHarness>>,
  url: string,
  value?: string,
): Promise<string> {
  const button = Button({
    id: "approve",
    label: "Approve",
    callbackUrl: url,
    ...(value === undefined ? {} : { value }),
  });
  await h.chat.thread(THREAD).post(Card({ title: "Order", children: [Actions([button])] }));
  const [call] = h.adapter.callsOf("postMessage");
  const posted = call?.args[1] as { children: Array<{ children?: Array<{ value?: string }> }> };
  const postedValue = posted.children[0]?.children?.[0]?.value;
  if (postedValue === undefined) throw new Error("the posted card has no button value");
  return postedValue;
}

/** Opens a modal with `callbackUrl` from a slash command; returns its view id on the mock. */
async function openCallbackModal(h: Awaited<ReturnType<typeof createChatHarness>>, url?: string) {
  h.chat.onSlashCommand(async (event) => {
    await event.openModal({ ...emptyModal("feedback_form"), ...(url ? { callbackUrl: url } : {}) });
  });
  await h.chat.processSlashCommand(h.adapter, slashCommandEvent({ triggerId: "trigger-1" }));
  const [view] = h.adapter.modals.opened;
  if (!view) throw new Error("no modal was opened");
  return view.viewId;
}

describe("Chat", () => {
  describe("Actions", () => {
    it("should decode callbackUrl token and POST to it", async () => {
      const receiver = await callbackReceiver();
      const h = await createChatHarness();
      const value = await postCallbackButton(h, receiver.url, "order-123");
      expect(value.startsWith("__cb:")).toBe(true);
      const seen: Array<string | undefined> = [];
      h.chat.onAction("approve", (event) => {
        seen.push(event.value);
      });

      await h.chat.processAction(h.adapter, actionEvent({ actionId: "approve", value }));

      expect(seen).toEqual(["order-123"]);
      expect(receiver.bodies).toEqual([
        {
          type: "action",
          actionId: "approve",
          value: "order-123",
          user: { id: "U123", name: "user" },
          threadId: THREAD,
          messageId: "msg-1",
        },
      ]);
    });

    it("should decode callbackUrl token with no original value", async () => {
      const receiver = await callbackReceiver();
      const h = await createChatHarness();
      const value = await postCallbackButton(h, receiver.url);
      const seen: ActionHandlerEvent<Thread>[] = [];
      h.chat.onAction((event) => {
        seen.push(event);
      });

      await h.chat.processAction(h.adapter, actionEvent({ actionId: "approve", value }));

      expect(seen).toHaveLength(1);
      expect(seen[0]?.value).toBeUndefined();
      expect(receiver.bodies).toHaveLength(1);
      expect(receiver.bodies[0]).not.toHaveProperty("value");
      expect(receiver.bodies[0]).toMatchObject({ type: "action", actionId: "approve" });
    });

    it("should preserve callback-like values when no callbackUrl is stored", async () => {
      const receiver = await callbackReceiver();
      const h = await createChatHarness();
      const seen: Array<string | undefined> = [];
      h.chat.onAction((event) => {
        seen.push(event.value);
      });

      await h.chat.processAction(h.adapter, actionEvent({ value: "__cb:not-a-stored-token" }));

      expect(seen).toEqual(["__cb:not-a-stored-token"]);
      expect(receiver.bodies).toEqual([]);
    });

    it("should fire onAction handlers alongside callbackUrl POST", async () => {
      const receiver = await callbackReceiver({ held: true });
      const h = await createChatHarness();
      const value = await postCallbackButton(h, receiver.url, "order-9");
      const order: string[] = [];
      h.chat.onAction("approve", async () => {
        order.push("handler start");
        // The POST is already under way while the handler runs.
        if (receiver.bodies.length === 0) await receiver.nextRequest();
        order.push("POST received during handler");
        receiver.release();
      });

      await h.chat.processAction(h.adapter, actionEvent({ actionId: "approve", value }));

      expect(order).toEqual(["handler start", "POST received during handler"]);
      expect(receiver.bodies).toEqual([expect.objectContaining({ value: "order-9" })]);
    });

    it("ignores a callback token clicked in another thread than its card was posted to", async () => {
      const receiver = await callbackReceiver();
      const h = await createChatHarness();
      const value = await postCallbackButton(h, receiver.url, "order-1");
      const seen: Array<string | undefined> = [];
      h.chat.onAction((event) => {
        seen.push(event.value);
      });

      await h.chat.processAction(
        h.adapter,
        actionEvent({ actionId: "approve", value, threadId: "mock:C999:other" }),
      );

      expect(seen).toEqual([value]);
      expect(receiver.bodies).toEqual([]);
    });
  });

  describe("action callbackUrl error logging", () => {
    it("should log error when action callbackUrl POST returns non-2xx", async () => {
      const receiver = await callbackReceiver({ status: 500 });
      const { logger, lines } = recordingLogger();
      const h = await createChatHarness({ logger });
      const value = await postCallbackButton(h, receiver.url, "order-1");
      let handled = 0;
      h.chat.onAction(() => {
        handled += 1;
      });

      await h.chat.processAction(h.adapter, actionEvent({ actionId: "approve", value }));

      expect(handled).toBe(1);
      const failure = lines.find((line) => line.message === "button callbackUrl POST failed");
      expect(failure?.level).toBe("error");
      expect(failure?.fields).toMatchObject({
        callbackUrl: receiver.url,
        actionId: "approve",
        error: expect.objectContaining({ message: "callback URL answered 500: receiver failed" }),
      });
    });
  });

  describe("Slash Commands", () => {
    it("should POST to modal callbackUrl on submit", async () => {
      const receiver = await callbackReceiver();
      const h = await createChatHarness();
      const viewId = await openCallbackModal(h, receiver.url);
      const tasks: Array<Promise<unknown>> = [];

      const answer = await h.adapter.modals.submit(
        viewId,
        { message: "Hello!", category: "feature" },
        { user: { userId: "U123", userName: "user" }, waitUntil: (task) => tasks.push(task) },
      );
      await Promise.all(tasks);

      expect(answer).toBeUndefined();
      expect(receiver.bodies).toEqual([
        {
          type: "modal_submit",
          callbackId: "feedback_form",
          viewId,
          values: { message: "Hello!", category: "feature" },
          user: { id: "U123", name: "user" },
        },
      ]);
    });

    it("should not POST to modal callbackUrl when submit returns errors", async () => {
      const receiver = await callbackReceiver();
      const h = await createChatHarness();
      const viewId = await openCallbackModal(h, receiver.url);
      h.chat.onModalSubmit("feedback_form", () => ({
        action: "errors",
        errors: { message: "Too short" },
      }));
      const tasks: Array<Promise<unknown>> = [];

      const answer = await h.adapter.modals.submit(
        viewId,
        { message: "x" },
        { waitUntil: (task) => tasks.push(task) },
      );
      await h.chat.shutdown();

      expect(answer).toEqual({ action: "errors", errors: { message: "Too short" } });
      expect(tasks).toEqual([]);
      expect(receiver.bodies).toEqual([]);
    });

    it("should not wait for modal callbackUrl before returning response", async () => {
      const receiver = await callbackReceiver({ held: true });
      const h = await createChatHarness();
      const viewId = await openCallbackModal(h, receiver.url);
      h.chat.onModalSubmit("feedback_form", () => ({ action: "close" }));
      const tasks: Array<Promise<unknown>> = [];
      const arrived = receiver.nextRequest();

      const answer = await h.adapter.modals.submit(
        viewId,
        { message: "Hello!" },
        { waitUntil: (task) => tasks.push(task) },
      );

      // Answered while the receiver still holds its response.
      expect(answer).toEqual({ action: "close" });
      expect(tasks).toHaveLength(1);
      let posted = false;
      void tasks[0]?.then(() => {
        posted = true;
      });
      await arrived;
      expect(posted).toBe(false);
      receiver.release();
      await tasks[0];
      expect(posted).toBe(true);
    });

    it("should fire-and-forget modal callbackUrl when no waitUntil is provided", async () => {
      const receiver = await callbackReceiver();
      const h = await createChatHarness();
      const viewId = await openCallbackModal(h, receiver.url);
      const arrived = receiver.nextRequest();

      await expect(h.adapter.modals.submit(viewId, { message: "Hi" })).resolves.toBeUndefined();
      await arrived;

      expect(receiver.bodies).toEqual([expect.objectContaining({ type: "modal_submit" })]);
      // Shutdown still waits for the POST it started.
      await h.chat.shutdown();
    });

    it("makes shutdown wait for a modal callbackUrl POST still in flight", async () => {
      const receiver = await callbackReceiver({ held: true });
      const h = await createChatHarness();
      const viewId = await openCallbackModal(h, receiver.url);
      const arrived = receiver.nextRequest();
      await h.adapter.modals.submit(viewId, { message: "Hi" });
      await arrived;
      const order: string[] = [];

      const shutdown = h.chat.shutdown().then(() => order.push("shutdown done"));
      // Let shutdown run as far as it can while the receiver still holds its answer.
      for (let turn = 0; turn < 10; turn += 1) await new Promise((r) => setImmediate(r));
      order.push("receiver answers");
      receiver.release();
      await shutdown;

      expect(order).toEqual(["receiver answers", "shutdown done"]);
    });

    it("should not POST when modal context has no callbackUrl", async () => {
      const receiver = await callbackReceiver();
      const h = await createChatHarness();
      const viewId = await openCallbackModal(h);
      const tasks: Array<Promise<unknown>> = [];

      await h.adapter.modals.submit(viewId, { message: "Hi" }, { waitUntil: (t) => tasks.push(t) });
      await h.chat.shutdown();

      expect(tasks).toEqual([]);
      expect(receiver.bodies).toEqual([]);
    });

    it("should log error when modal callbackUrl POST returns non-2xx", async () => {
      const receiver = await callbackReceiver({ status: 502 });
      const { logger, lines } = recordingLogger();
      const h = await createChatHarness({ logger });
      const viewId = await openCallbackModal(h, receiver.url);
      const tasks: Array<Promise<unknown>> = [];

      await h.adapter.modals.submit(viewId, { message: "Hi" }, { waitUntil: (t) => tasks.push(t) });
      await Promise.all(tasks);

      const failure = lines.find((line) => line.message === "modal callbackUrl POST failed");
      expect(failure?.level).toBe("error");
      expect(failure?.fields).toMatchObject({
        callbackUrl: receiver.url,
        error: expect.objectContaining({ message: "callback URL answered 502: receiver failed" }),
      });
    });
  });
});
