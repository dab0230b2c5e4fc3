import { createMemoryState } from "@baton/state-memory";
import { createMockAdapter, type MockAdapter } from "@baton/testing";
import { describeAdapter } from "../src/index.js";

// The testing kit's mock adapter reaches this package through the workspace root's
// devDependencies, like the memory backend: it is the reference the suite is checked against.

let nextId = 0;
const deliver = (adapter: MockAdapter, threadId: string, text: string, userId?: string) =>
  adapter.deliver({
    id: `conformance-${(nextId += 1)}`,
    threadId,
    text,
    ...(userId ? { userId } : {}),
  });

describeAdapter("mock", {
  create: () => createMockAdapter("mock"),
  createState: () => createMemoryState(),
  threads: [
    { channel: "C1", thread: "T1" },
    { channel: "D1", thread: "dm" },
  ],
  deliverUserMessage: (adapter, threadId, text) => deliver(adapter as MockAdapter, threadId, text),
  deliverSelfMessage: (adapter, threadId, text) =>
    deliver(adapter as MockAdapter, threadId, text, (adapter as MockAdapter).botUserId),
});

// The same mock standing in for smaller platforms: each switched-off feature must take its
// fallback or be refused with NotSupportedError, through the runtime and on the adapter itself.
const smallerPlatforms: Record<string, Parameters<typeof createMockAdapter>[1]> = {
  "mock (post + edit streaming, no cards, no ephemeral, no scheduling)": {
    capabilities: { streaming: "edit", cards: false, ephemeral: false, scheduling: false },
  },
  "mock (text only: no optional feature at all)": {
    capabilities: {
      streaming: false,
      cards: false,
      modals: false,
      ephemeral: false,
      scheduling: false,
      reactions: false,
      editMessage: false,
      deleteMessage: false,
      typing: false,
      history: false,
      openDM: false,
      getUser: false,
      files: false,
      readReceipts: false,
      replies: false,
    },
  },
};

for (const [name, options] of Object.entries(smallerPlatforms)) {
  describeAdapter(name, {
    create: () => createMockAdapter("mock", options),
    createState: () => createMemoryState(),
    threads: [{ channel: "C1", thread: "T1" }],
    deliverUserMessage: (adapter, threadId, text) =>
      deliver(adapter as MockAdapter, threadId, text),
    deliverSelfMessage: (adapter, threadId, text) =>
      deliver(adapter as MockAdapter, threadId, text, (adapter as MockAdapter).botUserId),
  });
}
