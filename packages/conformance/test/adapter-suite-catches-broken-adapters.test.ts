import { NotSupportedError } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import type { MockThreadData } from "@baton/testing";
import { createMockAdapter, createTestMessage, MockAdapter } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { type AdapterConformanceHarness, runAdapterConformance } from "../src/index.js";

/**
 * Deliberately broken adapters, each the mock adapter with one guarantee removed. The suite must
 * fail against every one; if it passes, it cannot see that bug.
 */
function mockHarness(create: () => MockAdapter): AdapterConformanceHarness<MockThreadData> {
  let nextId = 0;
  const deliver = (adapter: MockAdapter, threadId: string, text: string, userId?: string) =>
    adapter.deliver({ id: `m${(nextId += 1)}`, threadId, text, ...(userId ? { userId } : {}) });
  return {
    create,
    createState: () => createMemoryState(),
    threads: [{ channel: "C1", thread: "T1" }],
    deliverUserMessage: (adapter, threadId, text) =>
      deliver(adapter as MockAdapter, threadId, text),
    // The platform echoes the bot's post with the bot's real user id, U_BOT.
    deliverSelfMessage: (adapter, threadId, text) =>
      deliver(adapter as MockAdapter, threadId, text, "U_BOT"),
    settleTimeoutMs: 500,
  };
}

async function failingTitles(create: () => MockAdapter): Promise<string[]> {
  const results = await runAdapterConformance(mockHarness(create));
  return results.filter((result) => result.error !== undefined).map((result) => result.title);
}

/** Drops the adapter name from thread ids. */
class UnprefixedIds extends MockAdapter {
  override encodeThreadId(data: MockThreadData): string {
    return `${data.channel}:${data.thread}`;
  }
  override decodeThreadId(threadId: string): MockThreadData {
    const [channel = "", thread = ""] = threadId.replace(/^mock:/, "").split(":");
    return { channel, thread };
  }
}

/** Loses the thread part when decoding. */
class LossyDecode extends MockAdapter {
  override decodeThreadId(threadId: string): MockThreadData {
    return { ...super.decodeThreadId(threadId), thread: "T?" };
  }
}

/** Accepts any prefix. */
class AnyPrefix extends MockAdapter {
  override decodeThreadId(threadId: string): MockThreadData {
    const [, channel = "", thread = ""] = threadId.split(":");
    return { channel, thread };
  }
}

/** Answers posts without an id. */
class PostWithoutId extends MockAdapter {
  override async postMessage(threadId: string) {
    return { id: "", threadId };
  }
}

/** Answers every post with the same id. */
class SameIdEveryPost extends MockAdapter {
  override async postMessage(threadId: string) {
    return { id: "always-1", threadId };
  }
}

describe("the adapter conformance suite", () => {
  it("passes the intact mock adapter", async () => {
    expect(await failingTitles(() => createMockAdapter("mock"))).toEqual([]);
  });

  it("fails an adapter that does not know its own bot user id (its echoes look like a user's)", async () => {
    expect(
      await failingTitles(() => createMockAdapter("mock", { botUserId: "U_SOMEONE_ELSE" })),
    ).toEqual(["a message the bot itself sent is ignored: no handler runs"]);
  });

  it("fails an adapter whose thread ids lack the adapter name", async () => {
    expect(await failingTitles(() => new UnprefixedIds("mock"))).toEqual(
      expect.arrayContaining(["thread ids start with the adapter's name and a colon"]),
    );
  });

  it("fails an adapter whose decode loses part of the thread", async () => {
    expect(await failingTitles(() => new LossyDecode("mock"))).toEqual(
      expect.arrayContaining([
        "decodeThreadId(encodeThreadId(x)) equals x for every sample thread",
      ]),
    );
  });

  it("fails an adapter that decodes another adapter's thread ids", async () => {
    expect(await failingTitles(() => new AnyPrefix("mock"))).toEqual([
      "decodeThreadId refuses a thread id of another adapter",
    ]);
  });

  it("fails an adapter whose posts come back without an id, or with a repeated one", async () => {
    // Every capability case that posts first fails too; these two name the bug itself.
    expect(await failingTitles(() => new PostWithoutId("mock"))).toEqual(
      expect.arrayContaining([
        "postMessage returns a message id, a new one per post",
        "thread.post through a real Chat gives a handle with that id",
      ]),
    );
    expect(await failingTitles(() => new SameIdEveryPost("mock"))).toEqual([
      "postMessage returns a message id, a new one per post",
    ]);
  });

  it("fails a harness whose deliveries never reach the runtime, instead of passing silently", async () => {
    const harness = mockHarness(() => createMockAdapter("mock"));
    harness.deliverSelfMessage = async () => {};
    harness.deliverUserMessage = async () => {};
    const results = await runAdapterConformance(harness);
    const failed = results
      .filter((result) => result.error !== undefined)
      .map((result) => result.title);
    expect(failed).toEqual([
      "a user's message delivered through the entry point reaches a handler in its thread",
      "a message the bot itself sent is ignored: no handler runs",
    ]);
  });
});

/** Declares ephemeral messages but has no postEphemeral. */
class EphemeralWithoutMethod extends MockAdapter {
  override readonly capabilities = { ...createMockAdapter().capabilities };
  constructor(name: string) {
    super(name);
    Object.defineProperty(this, "postEphemeral", { value: undefined });
  }
}

/** Says it cannot edit, yet its editMessage quietly succeeds: a silent no-op. */
class SilentEdit extends MockAdapter {
  constructor(name: string) {
    super(name, { capabilities: { editMessage: false } });
  }
  override async editMessage(threadId: string, messageId: string) {
    return { id: messageId, threadId };
  }
}

/** Declares reactions but refuses them. */
class RefusesDeclaredReactions extends MockAdapter {
  override async addReaction(): Promise<void> {
    throw new NotSupportedError(this.name, "reactions");
  }
}

/** Refuses an undeclared feature with a NotSupportedError naming the wrong feature. */
class WrongFeatureName extends MockAdapter {
  constructor(name: string) {
    super(name, { capabilities: { deleteMessage: false } });
  }
  override async deleteMessage(): Promise<void> {
    throw new NotSupportedError(this.name, "delete");
  }
}

/** Keeps its posts in history, but an edit never reaches it: the platform shows the old text. */
class EditNeverStored extends MockAdapter {
  override async postMessage(threadId: string, message: Parameters<MockAdapter["postMessage"]>[1]) {
    const sent = await super.postMessage(threadId, message);
    const text =
      typeof message === "string" ? message : "markdown" in message ? message.markdown : "";
    this.seedMessages(threadId, [
      createTestMessage({
        id: sent.id,
        threadId,
        text,
        author: { userId: "U_BOT", isBot: true, isMe: true },
      }),
    ]);
    return sent;
  }
}

describe("the adapter conformance suite's capability cases", () => {
  it("pass the mock with every feature switched off", async () => {
    const none = Object.fromEntries(
      Object.keys(createMockAdapter().capabilities).map((key) => [key, false]),
    );
    expect(await failingTitles(() => createMockAdapter("mock", { capabilities: none }))).toEqual(
      [],
    );
  });

  it("fail an adapter that declares a feature without its method", async () => {
    expect(await failingTitles(() => new EphemeralWithoutMethod("mock"))).toEqual(
      expect.arrayContaining([
        "capabilities are complete and backed by the optional methods they name",
      ]),
    );
  });

  it("fail an adapter whose undeclared feature is a silent no-op", async () => {
    expect(await failingTitles(() => new SilentEdit("mock"))).toEqual([
      "editMessage: an edit keeps the message id and shows the new content, or is refused",
    ]);
  });

  it("fail an adapter that refuses a feature it declares", async () => {
    expect(await failingTitles(() => new RefusesDeclaredReactions("mock"))).toEqual([
      "reactions: the bot adds and removes a reaction, or both are refused",
    ]);
  });

  it("fail an adapter whose history still shows a message's text from before an edit", async () => {
    expect(await failingTitles(() => new EditNeverStored("mock"))).toEqual([
      "editMessage: an edit keeps the message id and shows the new content, or is refused",
    ]);
  });

  it("fail an adapter whose refusal names the wrong feature", async () => {
    expect(await failingTitles(() => new WrongFeatureName("mock"))).toEqual([
      "deleteMessage: a posted message can be deleted, or the delete is refused",
    ]);
  });
});
