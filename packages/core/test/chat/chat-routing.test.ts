import { describe, expect, it, vi } from "vitest";
import type { Message, Thread } from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";

const THREAD = "mock:C1:T1";
const DM_THREAD = "mock:DU123:T1";
const HELP_REGEX = /help/i;
const ANY_REGEX = /.*/;
/** Upstream's test names: the adapter's handle differs from the Chat's `userName`. */
const UPSTREAM_NAMES = { userName: "testbot", adapter: { userName: "slack-bot" } } as const;

type Call = { hook: string; threadId: string; message: Message };

/** Records every call of the handlers it makes, in call order, across hooks. */
function recorder() {
  const calls: Call[] = [];
  const handler =
    (hook: string) =>
    (thread: Thread, message: Message): void => {
      calls.push({ hook, threadId: thread.id, message });
    };
  const hooks = () => calls.map((call) => call.hook);
  return { calls, handler, hooks };
}

describe("Chat", () => {
  it("should call onNewMention handler when bot is mentioned", async () => {
    const h = await createChatHarness();
    const { calls, handler } = recorder();
    h.chat.onNewMention(handler("mention"));
    const acquireLock = vi.spyOn(h.state, "acquireLock");
    const releaseLock = vi.spyOn(h.state, "releaseLock");

    const { message, done } = h.send("Hey @bot help me");

    expect(await done).toEqual({ outcome: "handled" });
    expect(calls).toEqual([{ hook: "mention", threadId: THREAD, message }]);
    // Baton adds a third argument, the run's turn record (durable turns, ADR 0032).
    expect(acquireLock.mock.calls[0]?.slice(0, 2)).toEqual([`thread:${THREAD}`, 30_000]);
    expect(releaseLock).toHaveBeenCalledTimes(1);
    expect(await h.state.inspectLock(`thread:${THREAD}`)).toBeNull();
  });

  it("should call onNewMention for newline-separated GitHub bot mentions", async () => {
    const h = await createChatHarness(UPSTREAM_NAMES);
    const { hooks, handler } = recorder();
    h.chat.onNewMention(handler("mention"));

    const { done } = h.send("@copilot\n@slack-bot please review this");

    expect(await done).toEqual({ outcome: "handled" });
    expect(hooks()).toEqual(["mention"]);
  });

  it("should not call onNewMention for concatenated GitHub bot mention text", async () => {
    const h = await createChatHarness(UPSTREAM_NAMES);
    const { hooks, handler } = recorder();
    h.chat.onNewMention(handler("mention"));

    const { done } = h.send("@copilot@slack-bot please review this");

    expect(await done).toEqual({ outcome: "ignored" });
    expect(hooks()).toEqual([]);
  });

  it("should call onSubscribedMessage handler for subscribed threads", async () => {
    const h = await createChatHarness();
    const { calls, hooks, handler } = recorder();
    h.chat.onNewMention(handler("mention"));
    h.chat.onSubscribedMessage(handler("subscribed"));
    await h.state.subscribe(THREAD);

    const { message, done } = h.send("Follow up message");

    expect(await done).toEqual({ outcome: "handled" });
    expect(hooks()).toEqual(["subscribed"]);
    expect(calls[0]?.message).toBe(message);
  });

  it("should skip messages from self", async () => {
    const h = await createChatHarness();
    const { hooks, handler } = recorder();
    h.chat.onNewMention(handler("mention"));
    h.chat.onNewMessage(ANY_REGEX, handler("pattern"));

    const { done } = h.send("I am the bot @bot", {
      author: { userId: "U_BOT", userName: "bot", fullName: "Test Bot", isBot: true, isMe: true },
    });

    expect(await done).toMatchObject({ outcome: "ignored" });
    expect(hooks()).toEqual([]);
  });

  it("should match message patterns", async () => {
    const h = await createChatHarness();
    const { calls, handler } = recorder();
    h.chat.onNewMessage(HELP_REGEX, handler("help"));
    h.chat.onNewMessage(/deploy/, handler("deploy"));

    const { message, done } = h.send("Can someone help me?");

    expect(await done).toEqual({ outcome: "handled" });
    expect(calls).toEqual([{ hook: "help", threadId: THREAD, message }]);
  });

  describe("isMention property", () => {
    it("should set isMention=true when bot is mentioned", async () => {
      const h = await createChatHarness();
      const { calls, handler } = recorder();
      h.chat.onNewMention(handler("mention"));

      await h.send("Hey @bot help me").done;

      expect(calls).toHaveLength(1);
      expect(calls[0]?.message.isMention).toBe(true);
    });

    it("should set isMention=false when bot is not mentioned", async () => {
      const h = await createChatHarness();
      const { calls, handler } = recorder();
      h.chat.onNewMessage(HELP_REGEX, handler("help"));

      await h.send("I need help").done;

      expect(calls).toHaveLength(1);
      expect(calls[0]?.message.isMention).toBe(false);
    });

    // Upstream's own cases: its mock adapter's handle is `slack-bot` while the Chat's `userName`
    // is `testbot`, so these also prove detection uses the adapter's handle.
    it.each([
      ["jane@slack-bot.com", "an email whose domain starts with the bot name"],
      ["foo.bar@slack-bot.com", "a dotted email local part"],
      ["foo-bar@slack-bot.com", "a hyphenated email local part"],
      ["https://user@slack-bot.com", "url userinfo"],
    ])("should not treat %s as a mention (%s)", async (text) => {
      const h = await createChatHarness(UPSTREAM_NAMES);
      const { calls, hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));
      h.chat.onNewMessage(ANY_REGEX, handler("pattern"));

      await h.send(text).done;

      expect(hooks()).toEqual(["pattern"]);
      expect(calls[0]?.message.isMention).toBe(false);
    });

    it.each([
      ["@slack-bot help", "at the start"],
      ["hey @slack-bot", "after a space"],
      ["(@slack-bot)", "wrapped in parentheses"],
      ["cc:@slack-bot", "after a colon"],
      ["wait...@slack-bot", "after an ellipsis"],
    ])("should still detect %s as a mention (%s)", async (text) => {
      const h = await createChatHarness(UPSTREAM_NAMES);
      const { calls, hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));
      h.chat.onNewMessage(ANY_REGEX, handler("pattern"));

      await h.send(text).done;

      expect(hooks()).toEqual(["mention"]);
      expect(calls[0]?.message.isMention).toBe(true);
    });

    it.each([
      ["jane@bot.com", "an email whose domain starts with the bot name"],
      ["ping jane@bot", "a handle glued to a preceding word"],
      ["https://deploy@bot.example.com/status", "url userinfo"],
      ["@bot-dev can you help", "a hyphen-suffixed handle"],
      ["@botty can you help", "a longer handle"],
      ["@bot_2 can you help", "a handle with an underscore suffix"],
      ["bot can you help", "the bare name without @"],
    ])("should not treat %s as a mention (%s)", async (text) => {
      const h = await createChatHarness();
      const { calls, hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));
      h.chat.onNewMessage(ANY_REGEX, handler("pattern"));

      await h.send(text).done;

      expect(hooks()).toEqual(["pattern"]);
      expect(calls[0]?.message.isMention).toBe(false);
    });

    it.each([
      ["@bot", "the handle alone"],
      ["Hey @BOT, can you help", "another letter case, followed by punctuation"],
      ["(@bot) can you help", "inside parentheses"],
      ["first line\n@bot can you help", "after a newline"],
      ["@bot[bot] can you help", "GitHub's app suffix"],
      ["ask @bot.", "at the end of a sentence"],
      ["<@U_BOT> can you help", "the bot's user-id entity"],
      ["@U_BOT can you help", "the bot's user id as a handle"],
    ])("should still detect %s as a mention (%s)", async (text) => {
      const h = await createChatHarness();
      const { calls, hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));
      h.chat.onNewMessage(ANY_REGEX, handler("pattern"));

      await h.send(text).done;

      expect(hooks()).toEqual(["mention"]);
      expect(calls[0]?.message.isMention).toBe(true);
    });

    it("should set isMention=true in subscribed thread when mentioned", async () => {
      const h = await createChatHarness();
      const { calls, hooks, handler } = recorder();
      h.chat.onSubscribedMessage(handler("subscribed"));
      await h.state.subscribe(THREAD);

      await h.send("Hey @bot what about this?").done;

      expect(hooks()).toEqual(["subscribed"]);
      expect(calls[0]?.message.isMention).toBe(true);
    });

    it("treats an adapter's explicit isMention: false as final even when the text contains @bot", async () => {
      const h = await createChatHarness();
      const { calls, hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));
      h.chat.onNewMessage(ANY_REGEX, handler("pattern"));

      await h.send("@bot quoted in a forwarded message", { isMention: false }).done;

      expect(hooks()).toEqual(["pattern"]);
      expect(calls[0]?.message.isMention).toBe(false);
    });

    it("treats an adapter's explicit isMention: true as final even when the text has no @bot", async () => {
      const h = await createChatHarness();
      const { calls, hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));
      h.chat.onNewMessage(ANY_REGEX, handler("pattern"));

      await h.send("a reply in the bot's own thread", { isMention: true }).done;

      expect(hooks()).toEqual(["mention"]);
      expect(calls[0]?.message.isMention).toBe(true);
    });
  });

  describe("onNewMention behavior in subscribed threads", () => {
    it("should NOT call onNewMention for mentions in subscribed threads", async () => {
      const h = await createChatHarness();
      const { hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));
      h.chat.onSubscribedMessage(handler("subscribed"));
      await h.state.subscribe(THREAD);

      await h.send("Hey @bot are you there?").done;

      expect(hooks()).toEqual(["subscribed"]);
    });

    it("should call onNewMention only for mentions in unsubscribed threads", async () => {
      const h = await createChatHarness();
      const { hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));
      h.chat.onSubscribedMessage(handler("subscribed"));

      await h.send("Hey @bot help me").done;

      expect(hooks()).toEqual(["mention"]);
    });

    it("routes a thread's next message to onSubscribedMessage once a mention handler subscribed", async () => {
      const h = await createChatHarness();
      const { hooks, handler } = recorder();
      const mention = handler("mention");
      h.chat.onNewMention(async (thread, message) => {
        mention(thread, message);
        await thread.subscribe();
      });
      h.chat.onSubscribedMessage(handler("subscribed"));

      await h.send("Hey @bot watch this thread").done;
      await h.send("and here is more").done;
      await h.send("@bot still there?").done;

      expect(hooks()).toEqual(["mention", "subscribed", "subscribed"]);
    });
  });

  describe("onDirectMessage", () => {
    it("should route DMs to directMessage handler with channel", async () => {
      const h = await createChatHarness();
      const { hooks, handler } = recorder();
      let dmThread: Thread | undefined;
      h.chat.onDirectMessage((thread, message) => {
        dmThread = thread;
        handler("dm")(thread, message);
      });
      h.chat.onNewMention(handler("mention"));

      await h.send("Hello bot", { threadId: DM_THREAD }).done;

      expect(hooks()).toEqual(["dm"]);
      expect(dmThread?.id).toBe(DM_THREAD);
      expect(dmThread?.isDM).toBe(true);
      expect(dmThread?.channel.id).toBe("mock:DU123");
      expect(dmThread?.channel.isDM).toBe(true);
    });

    it("should fall through to onNewMention when no DM handlers registered", async () => {
      const h = await createChatHarness();
      const { calls, hooks, handler } = recorder();
      h.chat.onNewMention(handler("mention"));

      await h.send("Hello bot", { threadId: DM_THREAD }).done;

      expect(hooks()).toEqual(["mention"]);
      // Upstream marks such a DM as a mention, since it is addressed to the bot.
      expect(calls[0]?.message.isMention).toBe(true);
    });

    it("should route subscribed DM threads to onDirectMessage, not onSubscribedMessage", async () => {
      const h = await createChatHarness();
      const { hooks, handler } = recorder();
      h.chat.onDirectMessage(handler("dm"));
      h.chat.onSubscribedMessage(handler("subscribed"));
      await h.state.subscribe(DM_THREAD);

      await h.send("Follow up DM", { threadId: DM_THREAD }).done;

      expect(hooks()).toEqual(["dm"]);
    });

    it("should not route non-DM mentions to directMessage handler", async () => {
      const h = await createChatHarness();
      const { hooks, handler } = recorder();
      h.chat.onDirectMessage(handler("dm"));
      h.chat.onNewMention(handler("mention"));

      await h.send("Hey @bot help").done;

      expect(hooks()).toEqual(["mention"]);
    });
  });

  describe("several handlers of one hook", () => {
    it("runs several handlers of one hook in registration order", async () => {
      const h = await createChatHarness();
      const order: string[] = [];
      h.chat.onNewMention(async () => {
        order.push("first started");
        await h.clock.settle();
        order.push("first finished");
      });
      h.chat.onNewMention(() => {
        order.push("second");
      });
      h.chat.onNewMention(() => {
        order.push("third");
      });

      expect(await h.send("@bot hello").done).toEqual({ outcome: "handled" });
      expect(order).toEqual(["first started", "first finished", "second", "third"]);
    });

    it("runs every pattern handler that matches, in registration order", async () => {
      const h = await createChatHarness();
      const { hooks, handler } = recorder();
      h.chat.onNewMessage(/deploy/, handler("deploy"));
      h.chat.onNewMessage(/weather/, handler("weather"));
      h.chat.onNewMessage(/deploy status/g, handler("deploy status"));

      await h.send("deploy status please").done;
      await h.send("deploy status again").done;

      expect(hooks()).toEqual(["deploy", "deploy status", "deploy", "deploy status"]);
    });

    it("runs the next handler of the same hook after a handler throws, and the delivery resolves as an error", async () => {
      const h = await createChatHarness();
      const order: string[] = [];
      h.chat.onNewMention(() => {
        order.push("first");
        throw new Error("handler bug");
      });
      h.chat.onNewMention(async (thread) => {
        order.push("second");
        await thread.post("still answering");
      });

      expect(await h.send("@bot hello").done).toEqual({ outcome: "error" });
      expect(order).toEqual(["first", "second"]);
      expect(h.adapter.postedTo(THREAD)).toEqual(["still answering"]);
      // The failed run released its lock: the thread's next message is handled.
      expect(await h.send("@bot again").done).toEqual({ outcome: "error" });
      expect(order).toEqual(["first", "second", "first", "second"]);
    });
  });
});
