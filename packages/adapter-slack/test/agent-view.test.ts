import { afterEach, describe, expect, it } from "vitest";
import type { SlackAdapterConfig } from "../src/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function harness(config: Partial<SlackAdapterConfig> = {}) {
  const created = await createSlackHarness(config);
  harnesses.push(created);
  created.fake.reset();
  return created;
}

/** The thread ids the Chat's message, edit and delete hooks saw, in order. */
function recordThreads(h: SlackHarness) {
  const seen: string[] = [];
  h.chat.onDirectMessage((thread) => {
    seen.push(`dm ${thread.id}`);
  });
  h.chat.onSubscribedMessage((thread) => {
    seen.push(`subscribed ${thread.id}`);
  });
  h.chat.onMessageUpdated((thread) => {
    seen.push(`updated ${thread.id}`);
  });
  h.chat.onMessageDeleted((event) => {
    seen.push(`deleted ${event.threadId}`);
  });
  return seen;
}

const TOP_LEVEL_DM = {
  type: "message",
  channel: "D1",
  channel_type: "im",
  user: "U1",
  text: "hi",
  ts: "1771000000.000099",
  event_ts: "1771000000.000099",
};

describe("agent_view DM threading", () => {
  it("threads a top-level agent_view DM message under its own ts", async () => {
    const h = await harness({ agentView: true });
    const seen = recordThreads(h);
    await h.deliver(h.envelope(TOP_LEVEL_DM));
    expect(seen).toEqual(["dm slack:D1:1771000000.000099"]);
  });

  it("routes a top-level agent_view DM message to the conversation-scoped thread when it is subscribed (openDM flow)", async () => {
    const h = await harness({ agentView: true });
    const seen = recordThreads(h);
    await h.state.subscribe("slack:D1:");
    await h.deliver(h.envelope(TOP_LEVEL_DM));
    // Core routes a DM to its DM handlers before its subscription; the thread is what counts.
    expect(seen).toEqual(["dm slack:D1:"]);
  });

  it("keeps DM top-level messages conversation-scoped without agentView", async () => {
    const h = await harness();
    const seen = recordThreads(h);
    await h.deliver(h.envelope(TOP_LEVEL_DM));
    expect(seen).toEqual(["dm slack:D1:"]);
  });

  it("sets status on an agent_view DM thread", async () => {
    const h = await harness({ agentView: true });
    let threadId = "";
    h.chat.onDirectMessage(async (thread) => {
      threadId = thread.id;
      await thread.startTyping("Thinking...");
    });
    await h.deliver(h.envelope(TOP_LEVEL_DM));
    expect(threadId).toBe("slack:D1:1771000000.000099");
    expect(h.fake.store.statuses).toEqual([
      { channel: "D1", threadTs: "1771000000.000099", status: "Thinking..." },
    ]);
  });
});

describe("message subtype handling", () => {
  it("routes the message, its edit, and its delete to one thread id in a threaded agent_view DM", async () => {
    const h = await harness({ agentView: true });
    const seen = recordThreads(h);
    await h.deliver(h.envelope(TOP_LEVEL_DM));
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_changed",
        channel: "D1",
        channel_type: "im",
        ts: "1771000000.000200",
        message: { ...TOP_LEVEL_DM, text: "hi there", edited: { user: "U1", ts: "1771000000.2" } },
        previous_message: TOP_LEVEL_DM,
      }),
    );
    await h.settle();
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "message_deleted",
        channel: "D1",
        channel_type: "im",
        ts: "1771000000.000300",
        deleted_ts: TOP_LEVEL_DM.ts,
        previous_message: TOP_LEVEL_DM,
      }),
    );
    await h.settle();
    expect(seen).toEqual([
      "dm slack:D1:1771000000.000099",
      "updated slack:D1:1771000000.000099",
      "deleted slack:D1:1771000000.000099",
    ]);
  });
});
