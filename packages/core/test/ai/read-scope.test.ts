// Ports the "read scope" titles of upstream's packages/chat/src/ai/index.test.ts (chat 4.38.1).
// Upstream's test bodies for these titles are not in the reference corpus; the inputs follow the
// scope rules of chat 4.41 (channel-level scope, `strictScope`, the handled conversation
// inherited per call, one warning when unscoped), against the real mock adapter and Chat.
import { createTestAuthor, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { type ChatTools, createChatTools } from "../../src/ai/index.js";
import { argsOf, createToolsHarness, TOOL_OPTIONS } from "./tools-harness.js";

const THREAD = "slack:C123:1234.5678";
const SIBLING = "slack:C123:9999.0000";
const ELSEWHERE = "slack:C999:1111.2222";
const BLOCKED = /Tool call blocked/;

function read(tools: ChatTools, threadId: string) {
  return tools.fetchMessages?.execute?.({ threadId }, TOOL_OPTIONS);
}

/** Every read tool, called with a target in `channelId` (a thread there, or the channel). */
function readCalls(tools: ChatTools, threadId: string, channelId: string) {
  return [
    () => tools.fetchMessages?.execute?.({ threadId }, TOOL_OPTIONS),
    () => tools.fetchChannelMessages?.execute?.({ channelId }, TOOL_OPTIONS),
    () => tools.fetchThread?.execute?.({ threadId }, TOOL_OPTIONS),
    () => tools.listThreads?.execute?.({ channelId }, TOOL_OPTIONS),
    () => tools.getThreadParticipants?.execute?.({ threadId }, TOOL_OPTIONS),
    () => tools.getChannelInfo?.execute?.({ channelId }, TOOL_OPTIONS),
  ];
}

/** Settles `run` and reports how it ended, so assertions can run outside a handler. */
async function outcome(run: () => unknown): Promise<"ok" | string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("createChatTools", () => {
  describe("read scope", () => {
    it("blocks reading a thread outside the scoped channel", async () => {
      const { chat, mock } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: THREAD });

      await expect(read(tools, ELSEWHERE)).rejects.toThrow(BLOCKED);
      await expect(read(tools, ELSEWHERE)).rejects.toMatchObject({ name: "ValidationError" });
      expect(mock.callsOf("fetchMessages")).toEqual([]);
    });

    it("allows a sibling thread in the scoped channel by default", async () => {
      const { chat, mock } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: THREAD });

      await expect(read(tools, SIBLING)).resolves.toEqual({ messages: [], nextCursor: undefined });
      expect(argsOf(mock, "fetchMessages")).toEqual([
        [SIBLING, { limit: 20, direction: "backward" }],
      ]);
    });

    it("blocks a sibling thread when scoped to a single thread with strictScope", async () => {
      const { chat, mock } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: THREAD, strictScope: true });

      await expect(read(tools, SIBLING)).rejects.toThrow(BLOCKED);
      await expect(read(tools, THREAD)).resolves.toMatchObject({ messages: [] });
      expect(argsOf(mock, "fetchMessages").map(([id]) => id)).toEqual([THREAD]);
    });

    it("allows a sibling thread under strictScope when a channel is scoped", async () => {
      const { chat } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: "slack:C123", strictScope: true });

      await expect(read(tools, SIBLING)).resolves.toMatchObject({ messages: [] });
      await expect(read(tools, ELSEWHERE)).rejects.toThrow(BLOCKED);
    });

    it("allows channel-level reads when scoped to a thread", async () => {
      const { chat, mock } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: THREAD });

      await expect(
        tools.getChannelInfo?.execute?.({ channelId: "slack:C123" }, TOOL_OPTIONS),
      ).resolves.toMatchObject({ id: "slack:C123" });
      await expect(
        tools.listThreads?.execute?.({ channelId: "slack:C123" }, TOOL_OPTIONS),
      ).resolves.toEqual({ threads: [], nextCursor: undefined });
      expect(argsOf(mock, "listThreads")).toEqual([["slack:C123", { limit: 20 }]]);
    });

    it("allows sibling threads when scoped to the whole channel", async () => {
      const { chat } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: "slack:C123" });

      await expect(read(tools, THREAD)).resolves.toMatchObject({ messages: [] });
      await expect(read(tools, SIBLING)).resolves.toMatchObject({ messages: [] });
    });

    it("blocks channel-addressed reads outside the scoped channel", async () => {
      const { chat, mock } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: THREAD });

      await expect(
        tools.listThreads?.execute?.({ channelId: "slack:C999" }, TOOL_OPTIONS),
      ).rejects.toThrow(BLOCKED);
      await expect(
        tools.fetchChannelMessages?.execute?.({ channelId: "slack:C999" }, TOOL_OPTIONS),
      ).rejects.toThrow(BLOCKED);
      await expect(
        tools.getChannelInfo?.execute?.({ channelId: "slack:C999" }, TOOL_OPTIONS),
      ).rejects.toThrow(BLOCKED);
      expect(mock.calls).toEqual([]);
    });

    it("scopes every read tool", async () => {
      const { chat, mock } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: THREAD, preset: "reader" });

      for (const call of readCalls(tools, ELSEWHERE, "slack:C999")) {
        expect(await outcome(call)).toMatch(BLOCKED);
      }
      expect(mock.calls).toEqual([]);
    });

    it("accepts a Thread as the scope", async () => {
      const { chat } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: chat.thread(THREAD) });

      await expect(read(tools, SIBLING)).resolves.toMatchObject({ messages: [] });
      await expect(read(tools, ELSEWHERE)).rejects.toThrow(BLOCKED);
    });

    it("blocks reads across adapters", async () => {
      const { chat, adapters } = await createToolsHarness({ adapters: ["slack", "teams"] });
      const tools = createChatTools({ chat, scope: THREAD });

      // Same channel and thread parts, another adapter: another conversation.
      await expect(read(tools, "teams:C123:1234.5678")).rejects.toThrow(BLOCKED);
      expect(adapters.teams?.calls).toEqual([]);
    });

    it("inherits the conversation being handled when no scope is passed", async () => {
      const { chat, mock } = await createToolsHarness();
      const tools = createChatTools({ chat });
      const seen: string[] = [];
      chat.onNewMention(async () => {
        seen.push(await outcome(() => read(tools, ELSEWHERE)));
      });

      await chat.processMessage(
        mock,
        THREAD,
        createTestMessage({ threadId: THREAD, isMention: true }),
      );

      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(BLOCKED);
      expect(mock.callsOf("fetchMessages")).toEqual([]);
    });

    it("still reads its own conversation when inheriting", async () => {
      const { chat, mock } = await createToolsHarness();
      const seen: string[] = [];
      chat.onNewMention(async (thread) => {
        const tools = createChatTools({ chat });
        seen.push(await outcome(() => read(tools, thread.id)));
        seen.push(await outcome(() => read(tools, SIBLING)));
      });

      await chat.processMessage(
        mock,
        THREAD,
        createTestMessage({ threadId: THREAD, isMention: true }),
      );

      expect(seen).toEqual(["ok", "ok"]);
      expect(argsOf(mock, "fetchMessages").map(([id]) => id)).toEqual([THREAD, SIBLING]);
    });

    it("lets an explicit scope override the handled conversation", async () => {
      const { chat, mock } = await createToolsHarness();
      const seen: string[] = [];
      chat.onNewMention(async () => {
        const tools = createChatTools({ chat, scope: "slack:C999" });
        seen.push(await outcome(() => read(tools, ELSEWHERE)));
        seen.push(await outcome(() => read(tools, THREAD)));
      });

      await chat.processMessage(
        mock,
        THREAD,
        createTestMessage({ threadId: THREAD, isMention: true }),
      );

      expect(seen[0]).toBe("ok");
      expect(seen[1]).toMatch(BLOCKED);
    });

    it("keeps each concurrent conversation's scope separate", async () => {
      const { chat, mock } = await createToolsHarness();
      // One toolset for both handlers: the scope is resolved per call, in each handler's context.
      const tools = createChatTools({ chat });
      const seen = new Map<string, string[]>();
      let arrived = 0;
      let bothRunning: () => void = () => {};
      const barrier = new Promise<void>((resolve) => {
        bothRunning = resolve;
      });
      chat.onNewMention(async (thread) => {
        arrived += 1;
        if (arrived === 2) bothRunning();
        await barrier; // both handlers are now in flight at once
        const other = thread.id === THREAD ? ELSEWHERE : THREAD;
        seen.set(thread.id, [
          await outcome(() => read(tools, thread.id)),
          await outcome(() => read(tools, other)),
        ]);
      });

      await Promise.all([
        chat.processMessage(mock, THREAD, createTestMessage({ threadId: THREAD, isMention: true })),
        chat.processMessage(
          mock,
          ELSEWHERE,
          createTestMessage({ threadId: ELSEWHERE, isMention: true }),
        ),
      ]);

      expect(seen.get(THREAD)?.[0]).toBe("ok");
      expect(seen.get(THREAD)?.[1]).toMatch(BLOCKED);
      expect(seen.get(ELSEWHERE)?.[0]).toBe("ok");
      expect(seen.get(ELSEWHERE)?.[1]).toMatch(BLOCKED);
    });

    it("scopes reads during action dispatch", async () => {
      const { chat, mock } = await createToolsHarness();
      const seen: string[] = [];
      chat.onAction(async () => {
        const tools = createChatTools({ chat });
        seen.push(await outcome(() => read(tools, SIBLING)));
        seen.push(await outcome(() => read(tools, ELSEWHERE)));
      });

      await chat.processAction(mock, {
        actionId: "approve",
        user: createTestAuthor(),
        messageId: "msg-1",
        threadId: THREAD,
      });

      expect(seen[0]).toBe("ok");
      expect(seen[1]).toMatch(BLOCKED);
    });

    it("scopes reads during slash command dispatch", async () => {
      const { chat, mock } = await createToolsHarness();
      const seen: string[] = [];
      chat.onSlashCommand(async () => {
        const tools = createChatTools({ chat });
        seen.push(await outcome(() => read(tools, THREAD)));
        seen.push(await outcome(() => read(tools, ELSEWHERE)));
      });

      await chat.processSlashCommand(mock, {
        command: "/summarize",
        text: "",
        user: createTestAuthor(),
        channelId: "slack:C123",
      });

      expect(seen[0]).toBe("ok");
      expect(seen[1]).toMatch(BLOCKED);
    });

    it("stays unscoped outside a handler when scope is omitted, but warns", async () => {
      const { chat, lines } = await createToolsHarness();
      const tools = createChatTools({ chat });

      await expect(read(tools, ELSEWHERE)).resolves.toMatchObject({ messages: [] });
      await expect(read(tools, THREAD)).resolves.toMatchObject({ messages: [] });

      const warnings = lines.filter((line) => line.level === "warn");
      expect(warnings).toHaveLength(1); // once per toolset, not once per call
      expect(warnings[0]?.message).toContain(ELSEWHERE);
      expect(warnings[0]?.message).toContain("scope");
    });

    it("scopes to the conversation, not the channel, across adapters", async () => {
      const { chat, adapters } = await createToolsHarness({ adapters: ["slack", "teams"] });
      const teams = adapters.teams;
      if (!teams) throw new Error("no teams adapter");
      const own = "teams:C123:T1";
      const seen: string[] = [];
      chat.onNewMention(async () => {
        const tools = createChatTools({ chat, strictScope: true });
        seen.push(await outcome(() => read(tools, own)));
        seen.push(await outcome(() => read(tools, "teams:C123:T2")));
        seen.push(await outcome(() => read(tools, "slack:C123:T1")));
      });

      await chat.processMessage(teams, own, createTestMessage({ threadId: own, isMention: true }));

      // The handled conversation is the thread itself, so under strictScope its channel
      // siblings are refused, and the same ids on another adapter are another conversation.
      expect(seen[0]).toBe("ok");
      expect(seen[1]).toMatch(BLOCKED);
      expect(seen[2]).toMatch(BLOCKED);
      expect(adapters.slack?.calls).toEqual([]);
    });

    it("allows a channel-level read under strictScope when a channel is scoped", async () => {
      const { chat, mock } = await createToolsHarness();
      const tools = createChatTools({ chat, scope: "slack:C123", strictScope: true });

      await expect(
        tools.getChannelInfo?.execute?.({ channelId: "slack:C123" }, TOOL_OPTIONS),
      ).resolves.toMatchObject({ id: "slack:C123" });
      expect(argsOf(mock, "fetchChannelInfo")).toEqual([["slack:C123"]]);
    });
  });
});

describe("createChatTools (Baton)", () => {
  it("refuses under strictScope a channel-level read when a thread is scoped", async () => {
    const { chat } = await createToolsHarness();
    const tools = createChatTools({ chat, scope: THREAD, strictScope: true });

    await expect(
      tools.listThreads?.execute?.({ channelId: "slack:C123" }, TOOL_OPTIONS),
    ).rejects.toThrow(BLOCKED);
  });

  it("confines the write tools to the scope too", async () => {
    const { chat, mock } = await createToolsHarness();
    const tools = createChatTools({ chat, scope: THREAD, requireApproval: false });

    await expect(
      tools.postMessage?.execute?.({ threadId: ELSEWHERE, message: "hi" }, TOOL_OPTIONS),
    ).rejects.toThrow(BLOCKED);
    await expect(
      tools.deleteMessage?.execute?.({ threadId: ELSEWHERE, messageId: "m1" }, TOOL_OPTIONS),
    ).rejects.toThrow(BLOCKED);
    expect(mock.calls).toEqual([]);
  });

  it("scopes reads in a modal's submit and close handlers to the thread it was opened from", async () => {
    const { chat, mock } = await createToolsHarness();
    const seen: string[] = [];
    chat.onAction(async (event) => {
      await event.openModal({ type: "modal", callbackId: "form", title: "Form", children: [] });
    });
    const record = async () => {
      const tools = createChatTools({ chat });
      seen.push(await outcome(() => read(tools, SIBLING)));
      seen.push(await outcome(() => read(tools, ELSEWHERE)));
    };
    chat.onModalSubmit("form", record);
    chat.onModalClose("form", record);
    await chat.processAction(mock, {
      actionId: "open",
      user: createTestAuthor(),
      messageId: "msg-1",
      threadId: THREAD,
      triggerId: "trigger-1",
    });
    const contextId = mock.callsOf("openModal")[0]?.args[2] as string;
    const user = createTestAuthor();

    await chat.processModalClose(mock, { callbackId: "form", viewId: "V1", user }, contextId);
    await chat.processAction(mock, {
      actionId: "open",
      user,
      messageId: "msg-1",
      threadId: THREAD,
      triggerId: "trigger-2",
    });
    const secondId = mock.callsOf("openModal")[1]?.args[2] as string;
    await chat.processModalSubmit(
      mock,
      { callbackId: "form", viewId: "V2", values: {}, user },
      secondId,
    );

    expect(seen).toHaveLength(4);
    expect([seen[0], seen[2]]).toEqual(["ok", "ok"]);
    expect(seen[1]).toMatch(BLOCKED);
    expect(seen[3]).toMatch(BLOCKED);
  });

  it("lets scope: false reach every conversation without a warning", async () => {
    const { chat, lines } = await createToolsHarness();
    const tools = createChatTools({ chat, scope: false });

    await expect(read(tools, ELSEWHERE)).resolves.toMatchObject({ messages: [] });
    expect(lines.filter((line) => line.level === "warn")).toEqual([]);
  });

  it("rejects an empty scope id when the tools are created", async () => {
    const { chat } = await createToolsHarness();
    expect(() => createChatTools({ chat, scope: "" })).toThrow(/scope must be/);
  });
});
