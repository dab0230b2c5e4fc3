import { isDeepStrictEqual } from "node:util";
import { type AdapterConformanceCase, defineAdapterCases } from "./adapter-case.js";
import { capabilityCases } from "./capability-cases.js";

function check(condition: boolean, problem: string): void {
  if (!condition) throw new Error(problem);
}

function show(value: unknown): string {
  return JSON.stringify(value);
}

const threadIds = defineAdapterCases("thread ids", {
  "decodeThreadId(encodeThreadId(x)) equals x for every sample thread": async ({
    adapter,
    harness,
  }) => {
    for (const data of harness.threads) {
      const id = adapter.encodeThreadId(data);
      const decoded = adapter.decodeThreadId(id);
      check(
        isDeepStrictEqual(decoded, data),
        `${show(data)} encoded as ${show(id)} decoded to ${show(decoded)}`,
      );
      check(
        adapter.encodeThreadId(decoded) === id,
        `re-encoding ${show(decoded)} did not give ${show(id)}`,
      );
    }
  },
  "thread ids start with the adapter's name and a colon": async ({ adapter, harness }) => {
    for (const data of harness.threads) {
      const id = adapter.encodeThreadId(data);
      check(
        id.startsWith(`${adapter.name}:`),
        `${show(id)} does not start with "${adapter.name}:"`,
      );
    }
  },
  "channelIdFromThreadId gives an id with the adapter's prefix": async ({ adapter, harness }) => {
    for (const data of harness.threads) {
      const id = adapter.encodeThreadId(data);
      const channel = adapter.channelIdFromThreadId(id);
      check(
        typeof channel === "string" && channel.startsWith(`${adapter.name}:`),
        `channel of ${show(id)} is ${show(channel)}`,
      );
      check(channel.length > adapter.name.length + 1, `channel of ${show(id)} is only the prefix`);
    }
  },
  "decodeThreadId refuses a thread id of another adapter": async ({ adapter, threadId }) => {
    const foreign = `${adapter.name}other${threadId.slice(adapter.name.length)}`;
    let threw = false;
    try {
      adapter.decodeThreadId(foreign);
    } catch {
      threw = true;
    }
    check(threw, `decodeThreadId(${show(foreign)}) did not throw`);
  },
});

const inbound = defineAdapterCases("inbound", {
  "a user's message delivered through the entry point reaches a handler in its thread": async (
    context,
  ) => {
    const { adapter, chat, harness, threadId } = context;
    const seen = recordHandlers(chat);
    await harness.deliverUserMessage(adapter, threadId, "conformance: hello from a user");
    const [span] = await context.waitForSpans(1);
    check(span?.outcome === "handled", `the delivery ended ${show(span)}, expected handled`);
    check(
      isDeepStrictEqual(seen, [`${threadId} conformance: hello from a user`]),
      `handlers saw ${show(seen)}`,
    );
  },
  "a message the bot itself sent is ignored: no handler runs": async (context) => {
    const { adapter, chat, harness, threadId } = context;
    const seen = recordHandlers(chat);
    await chat.thread(threadId).subscribe();
    await harness.deliverSelfMessage(adapter, threadId, "conformance: my own post");
    // A user's message afterwards proves deliveries do reach handlers here, so the silence
    // about the first one means it was ignored, not lost.
    await harness.deliverUserMessage(adapter, threadId, "conformance: a user's reply");
    const spans = await context.waitForSpans(2);
    check(
      spans[0]?.outcome === "ignored",
      `the bot's own message ended ${show(spans[0])}, expected ignored`,
    );
    check(
      isDeepStrictEqual(seen, [`${threadId} conformance: a user's reply`]),
      `handlers saw ${show(seen)}; only the user's message should reach them`,
    );
  },
});

const outbound = defineAdapterCases("outbound", {
  "postMessage returns a message id, a new one per post": async ({ adapter, threadId }) => {
    const first = await adapter.postMessage(threadId, "conformance: first post");
    const second = await adapter.postMessage(threadId, "conformance: second post");
    for (const sent of [first, second]) {
      check(typeof sent?.id === "string" && sent.id !== "", `postMessage answered ${show(sent)}`);
      check(
        sent.threadId === undefined || sent.threadId.startsWith(`${adapter.name}:`),
        `postMessage reported thread ${show(sent.threadId)}`,
      );
    }
    check(first.id !== second.id, `two posts got the same id ${show(first.id)}`);
  },
  "thread.post through a real Chat gives a handle with that id": async ({ chat, threadId }) => {
    const handle = await chat.thread(threadId).post("conformance: posted by a handler");
    check(
      typeof handle.id === "string" && handle.id !== "",
      `the handle's id is ${show(handle.id)}`,
    );
  },
});

/** Every case of the adapter conformance suite, in order. */
export const adapterConformanceCases: readonly AdapterConformanceCase[] = [
  ...threadIds,
  ...inbound,
  ...outbound,
  ...capabilityCases,
];

/** Registers one recording handler on every message hook; returns what they saw. */
function recordHandlers(chat: Parameters<AdapterConformanceCase["run"]>[0]["chat"]): string[] {
  const seen: string[] = [];
  const record = async (thread: { id: string }, message: { text: string }) => {
    seen.push(`${thread.id} ${message.text}`);
  };
  chat.onDirectMessage(record);
  chat.onSubscribedMessage(record);
  chat.onNewMention(record);
  chat.onNewMessage(/[\s\S]*/, record);
  return seen;
}
