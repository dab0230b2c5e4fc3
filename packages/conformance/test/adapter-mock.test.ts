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
