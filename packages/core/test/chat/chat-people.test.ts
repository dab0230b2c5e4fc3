import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, type MockAdapter } from "@baton/testing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Chat, NotSupportedError, ValidationError } from "../../src/index.js";

// Upstream infers the adapter from id patterns in its core; Baton asks each adapter
// (`matchesUserId`), so these ports give each mock the id shape of the platform it stands in for.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NUMERIC = /^\d+$/;
const SNOWFLAKE = /^\d{17,19}$/;

function chatWith(adapters: Record<string, MockAdapter>) {
  return new Chat({
    userName: "testbot",
    adapters,
    state: createMemoryState({ clock: createFakeClock() }),
    logger: "silent",
    clock: createFakeClock(),
  });
}

let slack: MockAdapter;
let chat: Chat;

beforeEach(() => {
  slack = createMockAdapter("slack");
  chat = chatWith({ slack });
});

describe("Chat", () => {
  describe("openDM", () => {
    it("should infer Slack adapter from U... userId", async () => {
      const thread = await chat.openDM("U123456");
      expect(slack.callsOf("openDM").map((call) => call.args)).toEqual([["U123456"]]);
      expect(thread.id).toBe("slack:DU123456:dm");
      expect(thread.isDM).toBe(true);
      expect(thread.adapter).toBe(slack);
    });

    it("should accept Author object and extract userId", async () => {
      const author = {
        userId: "U789ABC",
        userName: "testuser",
        fullName: "Test User",
        isBot: false,
        isMe: false,
      };
      const thread = await chat.openDM(author);
      expect(slack.callsOf("openDM").map((call) => call.args)).toEqual([["U789ABC"]]);
      expect(thread.id).toBe("slack:DU789ABC:dm");
    });

    it("should throw error for unknown userId format", async () => {
      await expect(chat.openDM("invalid-user-id")).rejects.toThrow(
        'Cannot infer adapter from userId "invalid-user-id"',
      );
      expect(slack.callsOf("openDM")).toHaveLength(0);
    });

    it("should allow posting to DM thread", async () => {
      const thread = await chat.openDM("U123456");
      await thread.post("Hello via DM!");
      expect(slack.postedTo("slack:DU123456:dm")).toEqual(["Hello via DM!"]);
    });

    it("should allow streaming to a DM thread", async () => {
      const thread = await chat.openDM("U123456");
      async function* stream() {
        yield "Hello ";
        yield "via stream";
      }
      await thread.post(stream());
      expect(slack.postedTo("slack:DU123456:dm")).toEqual(["Hello via stream"]);
    });

    it("throws a NotSupportedError naming the adapter when it cannot open DMs", async () => {
      const noDM = createMockAdapter("slack", { capabilities: { openDM: false } });
      const error = await chatWith({ slack: noDM })
        .openDM("U123456")
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotSupportedError);
      expect(error).toMatchObject({ adapter: "slack", feature: "openDM" });
      expect(noDM.callsOf("openDM")).toHaveLength(0);
    });
  });

  describe("getUser", () => {
    const alice = {
      userId: "U123456",
      userName: "alice",
      fullName: "Alice Smith",
      email: "alice@example.com",
      avatarUrl: "https://example.com/alice.png",
      isBot: false,
    };

    it("should return user info from adapter", async () => {
      slack.seedUsers([alice]);
      const user = await chat.getUser("U123456");
      expect(user).not.toBeNull();
      expect(user?.email).toBe("alice@example.com");
      expect(user?.fullName).toBe("Alice Smith");
      expect(slack.callsOf("getUser").map((call) => call.args)).toEqual([["U123456"]]);
    });

    it("should accept Author object", async () => {
      slack.seedUsers([{ userId: "U789", userName: "bob", fullName: "Bob Jones", isBot: false }]);
      const user = await chat.getUser({
        userId: "U789",
        userName: "bob",
        fullName: "Bob Jones",
        isBot: false,
        isMe: false,
      });
      expect(slack.callsOf("getUser").map((call) => call.args)).toEqual([["U789"]]);
      expect(user?.fullName).toBe("Bob Jones");
    });

    it("should throw when adapter does not support getUser", async () => {
      const plain = createMockAdapter("slack", { capabilities: { getUser: false } });
      const pending = chatWith({ slack: plain }).getUser("U123456");
      // Baton's NotSupportedError names the feature as `feature "getUser"` (errors.md).
      await expect(pending).rejects.toThrow('feature "getUser"');
      await expect(pending).rejects.toBeInstanceOf(NotSupportedError);
      await expect(pending).rejects.toMatchObject({ adapter: "slack", feature: "getUser" });
      expect(plain.callsOf("getUser")).toHaveLength(0);
    });

    it("should return null when user is not found", async () => {
      expect(await chat.getUser("U999999")).toBeNull();
      expect(slack.callsOf("getUser")).toHaveLength(1);
    });

    it("should throw error for unknown userId format", async () => {
      await expect(chat.getUser("invalid-user-id")).rejects.toThrow(
        'Cannot infer adapter from userId "invalid-user-id"',
      );
      expect(slack.callsOf("getUser")).toHaveLength(0);
    });

    it("should infer linear adapter from a UUID", async () => {
      const linear = createMockAdapter("linear", { userIds: UUID });
      linear.seedUsers([
        {
          userId: "8f1f3c7e-d4e1-4f9a-bf2b-1c3d4e5f6a7b",
          userName: "ben",
          fullName: "Ben Sabic",
          isBot: false,
        },
      ]);
      const multi = chatWith({ slack, linear });
      const user = await multi.getUser("8f1f3c7e-d4e1-4f9a-bf2b-1c3d4e5f6a7b");
      expect(user?.fullName).toBe("Ben Sabic");
      expect(linear.callsOf("getUser").map((call) => call.args)).toEqual([
        ["8f1f3c7e-d4e1-4f9a-bf2b-1c3d4e5f6a7b"],
      ]);
      expect(slack.callsOf("getUser")).toHaveLength(0);
    });

    it("should infer telegram from numeric id when only telegram is registered", async () => {
      const telegram = createMockAdapter("telegram", { userIds: NUMERIC });
      telegram.seedUsers([
        { userId: "987654321", userName: "alice", fullName: "Alice", isBot: false },
      ]);
      const user = await chatWith({ telegram }).getUser("987654321");
      expect(user?.userName).toBe("alice");
      expect(telegram.callsOf("getUser").map((call) => call.args)).toEqual([["987654321"]]);
    });

    it("should infer github from numeric id when only github is registered", async () => {
      const github = createMockAdapter("github", { userIds: NUMERIC });
      github.seedUsers([
        { userId: "12345", userName: "octocat", fullName: "The Octocat", isBot: false },
      ]);
      const user = await chatWith({ github }).getUser("12345");
      expect(user?.userName).toBe("octocat");
    });

    it("should infer discord for 17-19 digit snowflake when only discord is registered", async () => {
      const discord = createMockAdapter("discord", { userIds: SNOWFLAKE });
      discord.seedUsers([
        {
          userId: "175928847299117063",
          userName: "discordbot",
          fullName: "Discord User",
          isBot: false,
        },
      ]);
      const user = await chatWith({ discord }).getUser("175928847299117063");
      expect(user?.fullName).toBe("Discord User");
    });

    it("should throw AMBIGUOUS_USER_ID when numeric id matches multiple registered adapters", async () => {
      const discord = createMockAdapter("discord", { userIds: SNOWFLAKE });
      const telegram = createMockAdapter("telegram", { userIds: NUMERIC });
      const pending = chatWith({ discord, telegram }).getUser("175928847299117063");
      await expect(pending).rejects.toThrow("ambiguous");
      await expect(pending).rejects.toBeInstanceOf(ValidationError);
      expect(discord.callsOf("getUser")).toHaveLength(0);
      expect(telegram.callsOf("getUser")).toHaveLength(0);
    });

    it("should not match GitHub-style logins as Slack ids (case sensitivity)", async () => {
      const github = createMockAdapter("github", { userIds: NUMERIC });
      await expect(chatWith({ slack, github }).getUser("user123")).rejects.toThrow(
        'Cannot infer adapter from userId "user123"',
      );
    });

    it("answers from the State cache: a second lookup makes no platform call", async () => {
      slack.seedUsers([alice]);
      await chat.getUser("U123456");
      const again = await chat.getUser({ userId: "U123456" });
      expect(again).toEqual(alice);
      expect(slack.callsOf("getUser")).toHaveLength(1);
    });

    it("wraps a failed platform call in an AdapterError and asks again on the next lookup", async () => {
      slack.seedUsers([alice]);
      slack.failNext("getUser", new Error("timeout"));
      await expect(chat.getUser("U123456")).rejects.toThrow("timeout");
      expect(await chat.getUser("U123456")).toEqual(alice);
      expect(slack.callsOf("getUser")).toHaveLength(2);
    });

    it("rejects an empty user id before any platform call", async () => {
      await expect(chat.getUser("")).rejects.toBeInstanceOf(ValidationError);
      await expect(chat.getUser({ userId: "" })).rejects.toBeInstanceOf(ValidationError);
      expect(slack.callsOf("getUser")).toHaveLength(0);
    });
  });

  it("never looks users up on the path that answers a webhook", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const lookup = slack.getUser.bind(slack);
    slack.getUser = vi.fn(async (userId: string) => {
      await gate;
      return lookup(userId);
    });
    const tasks: Promise<unknown>[] = [];
    chat.onNewMention(async (_thread, message) => {
      await chat.getUser(message.author);
    });
    const result = await chat.receiveMessage(
      slack,
      "slack:C1:T1",
      slack.parseMessage({
        id: "m1",
        threadId: "slack:C1:T1",
        text: "@bot who am I",
        author: { userId: "U_ASKER" },
        isMention: true,
      }),
      { waitUntil: (task) => tasks.push(task) },
    );
    // The webhook may answer while the handler's user lookup is still waiting on the platform.
    expect(result.outcome).toBe("accepted");
    expect(slack.getUser).toHaveBeenCalledTimes(0);
    release();
    await Promise.all(tasks);
    expect(slack.getUser).toHaveBeenCalledTimes(1);
  });
});
