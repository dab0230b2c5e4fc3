import { describeAdapter } from "@baton/conformance";
import type { Adapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createWebAdapter, type WebThreadData } from "../src/index.js";
import { identifyByHeader } from "./web-harness.js";

/** Posts `text` to the adapter's own endpoint as `userId`, as a browser would. */
async function postAs(
  adapter: Adapter<WebThreadData>,
  userId: string,
  threadId: string,
  text: string,
) {
  const response = await adapter.handleWebhook(
    new Request("http://localhost/api/web/messages", {
      method: "POST",
      headers: { "content-type": "application/json", "x-user": userId },
      body: JSON.stringify({ threadId, text }),
    }),
  );
  if (!response.ok) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
  return response;
}

describeAdapter<WebThreadData>("web", {
  create: () => createWebAdapter({ identify: identifyByHeader }),
  createState: () => createMemoryState(),
  // Every web thread belongs to one user, so messages in it come from that user — or the bot.
  threads: [
    { userId: "alice", threadName: "general" },
    { userId: "alice", threadName: "dm" },
    { userId: "u-2.b_C", threadName: "thread-7" },
  ],
  deliverUserMessage: (adapter, threadId, text) =>
    postAs(adapter, adapter.decodeThreadId(threadId).userId, threadId, text),
  // A web thread has one user: ephemeral messages and DMs address that user.
  userIn: (adapter, threadId) => adapter.decodeThreadId(threadId).userId,
  // The bot posting through the browser endpoint would need the thread to be its own; here
  // the host's identify names the bot user, which is how a self message reaches this adapter.
  deliverSelfMessage: (adapter, threadId, text) => {
    const botThread = adapter.encodeThreadId({
      ...adapter.decodeThreadId(threadId),
      userId: adapter.botUserId ?? "bot",
    });
    return postAs(adapter, adapter.botUserId ?? "bot", botThread, text);
  },
});
