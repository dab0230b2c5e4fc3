import { describe, expect, it } from "vitest";
import type { AssistantThreadStartedEvent, Logger } from "../../src/index.js";
import { AdmissionRejectedError } from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";

const STARTED: AssistantThreadStartedEvent = {
  threadId: "mock:D1:1.2",
  threadTs: "1.2",
  channelId: "D1",
  userId: "U1",
  context: { channelId: "C9" },
};

function recordingLogger(errors: string[]): Logger {
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (message) => {
      errors.push(message);
    },
    child: () => logger,
  };
  return logger;
}

describe("assistant and app-surface events", () => {
  it("hands each event to its own hook, with the registered adapter, in registration order", async () => {
    const h = await createChatHarness();
    const seen: string[] = [];
    h.chat.onAssistantThreadStarted((event) => {
      seen.push(`started:${event.threadId}:${event.adapter.name}`);
    });
    h.chat.onAssistantThreadStarted(() => {
      seen.push("started:second");
    });
    h.chat.onAssistantContextChanged((event) => {
      seen.push(`context:${event.context.channelId}`);
    });
    h.chat.onAppHomeOpened((event) => {
      seen.push(`home:${event.tab}`);
    });
    h.chat.onAppContextChanged((event) => {
      seen.push(`app-context:${event.entities.map((e) => e.kind).join()}`);
    });
    h.chat.onMemberJoinedChannel((event) => {
      seen.push(`joined:${event.userId}:${event.channelId}`);
    });
    await h.chat.processAssistantThreadStarted(h.adapter, STARTED);
    await h.chat.processAssistantContextChanged(h.adapter, { ...STARTED, context: {} });
    await h.chat.processAppHomeOpened(h.adapter, { channelId: "D1", userId: "U1", tab: "home" });
    await h.chat.processAppContextChanged(h.adapter, {
      channelId: "D1",
      userId: "U1",
      entities: [{ kind: "channel", channelId: "C2" }],
    });
    await h.chat.processMemberJoinedChannel(h.adapter, { channelId: "C3", userId: "U4" });
    expect(seen).toEqual([
      "started:mock:D1:1.2:mock",
      "started:second",
      "context:undefined",
      "home:home",
      "app-context:channel",
      "joined:U4:C3",
    ]);
  });

  it("logs a handler that throws and still runs the next one", async () => {
    const errors: string[] = [];
    const h = await createChatHarness({ logger: recordingLogger(errors) });
    const seen: string[] = [];
    h.chat.onAppHomeOpened(() => {
      throw new Error("broken hook");
    });
    h.chat.onAppHomeOpened(() => {
      seen.push("second");
    });
    await expect(
      h.chat.processAppHomeOpened(h.adapter, { channelId: "D1", userId: "U1" }),
    ).resolves.toBeUndefined();
    expect(seen).toEqual(["second"]);
    expect(errors).toEqual(["assistant event handler failed"]);
  });

  it("refuses the events once shutdown began", async () => {
    const h = await createChatHarness();
    await h.chat.shutdown();
    await expect(h.chat.processAssistantThreadStarted(h.adapter, STARTED)).rejects.toBeInstanceOf(
      AdmissionRejectedError,
    );
  });
});
