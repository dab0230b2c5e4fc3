import type { Logger } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import type { SlackAdapterConfig } from "../src/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

interface Logged {
  readonly level: string;
  readonly message: string;
}

function recordingLogger(lines: Logged[]): Logger {
  const at =
    (level: string) =>
    (message: string): void => {
      lines.push({ level, message });
    };
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: () => logger,
  };
  return logger;
}

async function harness(config: Partial<SlackAdapterConfig> = {}) {
  const created = await createSlackHarness(config);
  harnesses.push(created);
  created.fake.reset();
  return created;
}

/** Delivers `event` and waits for the work that runs after the answer. */
async function deliver(h: SlackHarness, event: Record<string, unknown>) {
  const response = await h.deliver(h.envelope(event));
  await h.settle();
  return response;
}

function promptsArg(h: SlackHarness) {
  const calls = h.fake.callsOf("assistant.threads.setSuggestedPrompts");
  const prompts = calls.at(-1)?.args.prompts;
  return typeof prompts === "string" ? JSON.parse(prompts) : prompts;
}

const ASSISTANT_STARTED = {
  type: "assistant_thread_started",
  event_ts: "1700000000.000001",
  assistant_thread: {
    user_id: "U_USER",
    channel_id: "D_ASSISTANT",
    thread_ts: "1700000000.111111",
    context: { channel_id: "C_CONTEXT", team_id: "T_CONTEXT", enterprise_id: "E1" },
  },
};

function homeOpened(tab: string, context?: unknown) {
  return {
    type: "app_home_opened",
    user: "U_USER",
    channel: "D1",
    tab,
    event_ts: "1700000000.000002",
    ...(context === undefined ? {} : { context }),
  };
}

const CHANNEL_ENTITY = { type: "slack#/types/channel_id", value: "C9" };

describe("agent_view app_home_opened", () => {
  it("dispatches app_home_opened for a non-home tab when agentView is enabled", async () => {
    const h = await harness({ agentView: true });
    const seen: unknown[] = [];
    h.chat.onAppHomeOpened((event) => {
      seen.push({ channelId: event.channelId, userId: event.userId, tab: event.tab });
    });
    const response = await deliver(h, homeOpened("messages"));
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ channelId: "D1", userId: "U_USER", tab: "messages" }]);
  });

  it("ignores app_home_opened for a non-home tab by default (assistant_view)", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onAppHomeOpened((event) => {
      seen.push(event.tab);
    });
    await deliver(h, homeOpened("messages"));
    await deliver(h, homeOpened("home"));
    expect(seen).toEqual(["home"]);
  });

  it("normalizes folded app_home_opened context into entities", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onAppHomeOpened((event) => {
      seen.push(event.entities);
    });
    await deliver(h, homeOpened("home", { entities: [CHANNEL_ENTITY] }));
    expect(seen).toEqual([[{ kind: "channel", channelId: "C9" }]]);
  });
});

describe("app_context_changed", () => {
  it("routes app_context_changed with normalized entities", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onAppContextChanged((event) => {
      seen.push({ channelId: event.channelId, userId: event.userId, entities: event.entities });
    });
    const response = await deliver(h, {
      type: "app_context_changed",
      channel: "D1",
      user: "U1",
      context: { entities: [CHANNEL_ENTITY] },
      event_ts: "1.2",
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      { channelId: "D1", userId: "U1", entities: [{ kind: "channel", channelId: "C9" }] },
    ]);
  });

  it("passes empty entities for an empty context object", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onAppContextChanged((event) => {
      seen.push(event.entities);
    });
    await deliver(h, {
      type: "app_context_changed",
      channel: "D1",
      user: "U1",
      context: {},
      event_ts: "1.2",
    });
    expect(seen).toEqual([[]]);
  });

  it("returns 200 with empty entities when the payload has no context field", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onAppContextChanged((event) => {
      seen.push(event.entities);
    });
    const response = await deliver(h, {
      type: "app_context_changed",
      channel: "D1",
      user: "U1",
      event_ts: "1.2",
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual([[]]);
  });
});

describe("handleWebhook - assistant events", () => {
  it("handles assistant_thread_started event", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onAssistantThreadStarted((event) => {
      seen.push({ ...event, adapter: event.adapter.name, raw: undefined });
    });
    const response = await deliver(h, ASSISTANT_STARTED);
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      {
        adapter: "slack",
        threadId: "slack:D_ASSISTANT:1700000000.111111",
        threadTs: "1700000000.111111",
        channelId: "D_ASSISTANT",
        userId: "U_USER",
        context: { channelId: "C_CONTEXT", teamId: "T_CONTEXT", enterpriseId: "E1" },
        raw: undefined,
      },
    ]);
  });

  it("handles assistant_thread_context_changed event", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onAssistantContextChanged((event) => {
      seen.push({ threadId: event.threadId, context: event.context });
    });
    h.chat.onAssistantThreadStarted(() => {
      seen.push("wrong hook");
    });
    await deliver(h, {
      ...ASSISTANT_STARTED,
      type: "assistant_thread_context_changed",
      assistant_thread: {
        ...ASSISTANT_STARTED.assistant_thread,
        context: { channel_id: "C_OTHER", team_id: "T_CONTEXT" },
      },
    });
    expect(seen).toEqual([
      {
        threadId: "slack:D_ASSISTANT:1700000000.111111",
        context: { channelId: "C_OTHER", teamId: "T_CONTEXT" },
      },
    ]);
  });

  it("handles app_home_opened event", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onAppHomeOpened((event) => {
      seen.push({ channelId: event.channelId, userId: event.userId, tab: event.tab });
    });
    const response = await deliver(h, homeOpened("home"));
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ channelId: "D1", userId: "U_USER", tab: "home" }]);
  });

  it("handles member_joined_channel event", async () => {
    const h = await harness();
    const seen: unknown[] = [];
    h.chat.onMemberJoinedChannel((event) => {
      seen.push({ channelId: event.channelId, userId: event.userId, inviterId: event.inviterId });
    });
    const response = await deliver(h, {
      type: "member_joined_channel",
      user: "U_NEW",
      channel: "C_GENERAL",
      inviter: "U_INVITER",
      event_ts: "1.2",
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ channelId: "C_GENERAL", userId: "U_NEW", inviterId: "U_INVITER" }]);
  });
});

describe("configured suggestedPrompts", () => {
  const IDEAS = { title: "Ideas", message: "Generate ideas" };

  it("applies static prompts on assistant_thread_started (legacy assistant_view)", async () => {
    const h = await harness({ suggestedPrompts: { title: "Welcome!", prompts: [IDEAS] } });
    const response = await deliver(h, ASSISTANT_STARTED);
    expect(response.status).toBe(200);
    const [call] = h.fake.callsOf("assistant.threads.setSuggestedPrompts");
    expect(call?.args).toMatchObject({
      channel_id: "D_ASSISTANT",
      thread_ts: "1700000000.111111",
      title: "Welcome!",
    });
    expect(promptsArg(h)).toEqual([IDEAS]);
  });

  it("applies prompts on Messages-tab app_home_opened under agentView, without thread_ts", async () => {
    const h = await harness({ agentView: true, suggestedPrompts: { prompts: [IDEAS] } });
    await deliver(h, homeOpened("messages"));
    const calls = h.fake.callsOf("assistant.threads.setSuggestedPrompts");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args.channel_id).toBe("D1");
    expect(calls[0]?.args).not.toHaveProperty("thread_ts");
  });

  it("does not apply prompts on a Home-tab open under agentView", async () => {
    const h = await harness({ agentView: true, suggestedPrompts: { prompts: [IDEAS] } });
    await deliver(h, homeOpened("home"));
    expect(h.fake.callsOf("assistant.threads.setSuggestedPrompts")).toEqual([]);
  });

  it("does nothing when suggestedPrompts is not configured", async () => {
    const h = await harness();
    await deliver(h, ASSISTANT_STARTED);
    await deliver(h, homeOpened("home"));
    expect(h.fake.calls.map((call) => call.method)).toEqual([]);
  });

  it("invokes a dynamic resolver with thread context", async () => {
    const contexts: unknown[] = [];
    const h = await harness({
      suggestedPrompts: (context) => {
        contexts.push(context);
        return { prompts: [{ title: "Dynamic", message: "Resolved per thread" }] };
      },
    });
    await deliver(h, ASSISTANT_STARTED);
    expect(contexts).toEqual([
      {
        channelId: "D_ASSISTANT",
        threadTs: "1700000000.111111",
        userId: "U_USER",
        teamId: "T_CONTEXT",
        entities: [],
      },
    ]);
    expect(promptsArg(h)).toEqual([{ title: "Dynamic", message: "Resolved per thread" }]);
  });

  it("passes active-view entities to the resolver under agentView", async () => {
    const contexts: Array<{ channelId: string; teamId?: string; entities: unknown }> = [];
    const h = await harness({
      agentView: true,
      suggestedPrompts: async (context) => {
        contexts.push(context);
        return null;
      },
    });
    await deliver(
      h,
      homeOpened("messages", {
        entities: [{ type: "slack#/types/channel_id", value: "C42", team_id: "T123" }],
      }),
    );
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.channelId).toBe("D1");
    expect(contexts[0]?.teamId).toBe(h.fake.teamId);
    expect(contexts[0]?.entities).toEqual([{ kind: "channel", channelId: "C42", teamId: "T123" }]);
  });

  it("skips setting prompts when the resolver returns null", async () => {
    let asked = 0;
    const h = await harness({
      suggestedPrompts: () => {
        asked += 1;
        return null;
      },
    });
    await deliver(h, ASSISTANT_STARTED);
    expect(asked).toBe(1);
    expect(h.fake.callsOf("assistant.threads.setSuggestedPrompts")).toEqual([]);
  });

  it("truncates to Slack's 4-prompt limit with a warning", async () => {
    const lines: Logged[] = [];
    const prompts = Array.from({ length: 6 }, (_, i) => ({ title: `P${i}`, message: `M${i}` }));
    const h = await harness({ suggestedPrompts: { prompts }, logger: recordingLogger(lines) });
    await deliver(h, ASSISTANT_STARTED);
    expect(promptsArg(h)).toEqual(prompts.slice(0, 4));
    expect(lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
      "slack: more suggested prompts than Slack shows; sending the first 4",
    ]);
  });

  it("logs and keeps the webhook green when the resolver throws", async () => {
    const lines: Logged[] = [];
    const started: string[] = [];
    const h = await harness({
      suggestedPrompts: () => {
        throw new Error("resolver blew up");
      },
      logger: recordingLogger(lines),
    });
    h.chat.onAssistantThreadStarted((event) => {
      started.push(event.threadId);
    });
    const response = await deliver(h, ASSISTANT_STARTED);
    expect(response.status).toBe(200);
    expect(h.fake.callsOf("assistant.threads.setSuggestedPrompts")).toEqual([]);
    expect(lines.map((line) => line.message)).toContain("slack: could not set suggested prompts");
    expect(started).toEqual(["slack:D_ASSISTANT:1700000000.111111"]);
  });

  it("logs and keeps the webhook green when the API call fails", async () => {
    const lines: Logged[] = [];
    const h = await harness({
      suggestedPrompts: { prompts: [IDEAS] },
      logger: recordingLogger(lines),
    });
    h.fake.failNext("assistant.threads.setSuggestedPrompts", { error: "internal_error" });
    const response = await deliver(h, ASSISTANT_STARTED);
    expect(response.status).toBe(200);
    expect(h.fake.callsOf("assistant.threads.setSuggestedPrompts")).toHaveLength(1);
    expect(lines.map((line) => line.message)).toContain("slack: could not set suggested prompts");
  });
});

describe("configured loadingMessages", () => {
  const THREAD = "slack:D1:1700000000.000100";

  function lastStatus(h: SlackHarness) {
    const args = h.fake.callsOf("assistant.threads.setStatus").at(-1)?.args;
    const loading = args?.loading_messages;
    return {
      status: args?.status,
      loading: typeof loading === "string" ? JSON.parse(loading) : loading,
    };
  }

  it("startTyping uses configured loading messages by default", async () => {
    const h = await harness({ loadingMessages: ["Thinking...", "Digging..."] });
    await h.adapter.startTyping(THREAD);
    expect(lastStatus(h)).toEqual({
      status: "Thinking...",
      loading: ["Thinking...", "Digging..."],
    });
  });

  it("startTyping prefers an explicit status over configured messages", async () => {
    const h = await harness({ loadingMessages: ["Thinking..."] });
    await h.adapter.startTyping(THREAD, "Searching docs...");
    expect(lastStatus(h)).toEqual({
      status: "Searching docs...",
      loading: ["Searching docs..."],
    });
  });

  it("setAssistantStatus falls back to configured loading messages", async () => {
    const h = await harness({ loadingMessages: ["Thinking..."] });
    await h.adapter.setAssistantStatus("D1", "1700000000.000100", "working");
    expect(lastStatus(h)).toEqual({ status: "working", loading: ["Thinking..."] });
  });

  it("setAssistantStatus explicit loadingMessages win over config", async () => {
    const h = await harness({ loadingMessages: ["Thinking..."] });
    await h.adapter.setAssistantStatus("D1", "1700000000.000100", "working", ["Custom..."]);
    expect(lastStatus(h)).toEqual({ status: "working", loading: ["Custom..."] });
  });

  it("startTyping keeps the Typing... default without config", async () => {
    const h = await harness();
    await h.adapter.startTyping(THREAD);
    expect(lastStatus(h)).toEqual({ status: "Typing...", loading: ["Typing..."] });
  });
});
