/**
 * User names on events other than plain messages: `user_change`, reactions, system authors, the
 * author's email, enterprise (`W…`) ids. Ports upstream's cases where Baton behaves the same; the
 * Baton-titled tests pin where names arrive from the second message on (ADR 0027).
 */
import { userCacheKey } from "@baton/core";
import { describe, expect, it } from "vitest";
import {
  harness,
  indexedUnder,
  knownUser,
  messageEvent,
  postedText,
  recordMessages,
  usersInfoIds,
} from "./names-helpers.js";

const ALICE = {
  id: "U_HUMAN_1",
  name: "alice",
  realName: "Alice Example",
  displayName: "Alice",
  email: "alice@example.com",
};

describe("reverse user lookup", () => {
  describe("system-authored messages", () => {
    it("marks messages from USLACK as isSystem", async () => {
      const h = await harness();
      const message = h.adapter.parseMessage({
        type: "message",
        user: "USLACK",
        channel_type: "im",
        text: "<@U123> archived the channel <#C123>",
        ts: "1234567890.123456",
        channel: "D123",
      });
      expect(message.author.userId).toBe("USLACK");
      expect(message.author.isBot).toBe(false);
      expect(message.author.isSystem).toBe(true);
      expect(message.author.isMe).toBe(false);
    });

    it("marks human-authored messages as not isSystem", async () => {
      const h = await harness();
      const message = h.adapter.parseMessage({
        type: "message",
        user: "U_HUMAN_1",
        username: "human",
        text: "Hello",
        ts: "1234567890.123456",
        channel: "C123",
      });
      expect(message.author.userId).toBe("U_HUMAN_1");
      expect(message.author.isBot).toBe(false);
      // Author.isSystem is absent for anyone but the platform itself.
      expect(message.author.isSystem).toBeUndefined();
      expect(message.author.isMe).toBe(false);
    });
  });

  describe("incoming author email", () => {
    it("gives the author's email once the user was looked up (Baton: from the second message on)", async () => {
      const h = await harness();
      h.fake.addUser(ALICE);
      const seen = recordMessages(h);
      for (let i = 0; i < 2; i += 1) {
        await h.deliver(h.envelope(messageEvent({ user: "U_HUMAN_1", text: "Hello" })));
        await h.settle();
      }
      expect(seen.map((s) => s.author.email)).toEqual([undefined, "alice@example.com"]);
    });

    it("leaves email undefined when the profile has none", async () => {
      const h = await harness();
      h.fake.addUser({ ...ALICE, email: undefined });
      const seen = recordMessages(h);
      for (let i = 0; i < 2; i += 1) {
        await h.deliver(h.envelope(messageEvent({ user: "U_HUMAN_1", text: "Hello" })));
        await h.settle();
      }
      // The second message was named from the looked-up profile, which has no email.
      expect(seen[1]?.author.userName).toBe("Alice");
      expect(seen[1]?.author.email).toBeUndefined();
      expect(seen[1]?.author).not.toHaveProperty("email");
    });

    it("leaves email undefined when the user lookup is skipped", async () => {
      const h = await harness();
      const seen = recordMessages(h);
      await h.deliver(h.envelope(messageEvent({ username: "webhook-bot", text: "Hello" })));
      await h.settle();
      expect(seen).toHaveLength(1);
      expect(seen[0]?.author.email).toBeUndefined();
      expect(h.fake.callsOf("users.info")).toHaveLength(0);
    });

    it("serves email from the user cache without a second users.info call", async () => {
      const h = await harness();
      h.fake.addUser(ALICE);
      const seen = recordMessages(h);
      for (let i = 0; i < 2; i += 1) {
        await h.deliver(h.envelope(messageEvent({ user: "U_HUMAN_1", text: "Hello" })));
        await h.settle();
      }
      expect(seen[1]?.author.email).toBe("alice@example.com");
      expect(h.fake.callsOf("users.info")).toHaveLength(1);
    });
  });

  describe("user_change event", () => {
    it("invalidates user cache on profile change", async () => {
      const h = await harness();
      const key = userCacheKey("slack", "U_DOM_123");
      await h.state.set(
        key,
        {
          status: "found",
          user: { userId: "U_DOM_123", userName: "dominik", fullName: "Dominik G", isBot: false },
        },
        8 * 24 * 60 * 60 * 1000,
      );
      const response = await h.deliver({
        type: "event_callback",
        event: {
          type: "user_change",
          event_ts: "1234567890.123456",
          user: {
            id: "U_DOM_123",
            name: "dominik",
            real_name: "Dominik New",
            profile: { display_name: "dom_new", real_name: "Dominik New" },
          },
        },
      });
      expect(response.status).toBe(200);
      await h.settle();
      expect(await h.state.get(key)).toBeNull();
    });
  });
});

describe("user_change and the names the bot reads and writes", () => {
  const changed = (user: Record<string, unknown>) => ({ type: "user_change", user });

  it("drops the old names from the reverse index and indexes the new ones", async () => {
    const h = await harness();
    await knownUser(h, { id: "U0DOM0001", name: "dominik", displayName: "Dominik" });
    await h.deliver(
      h.envelope(changed({ id: "U0DOM0001", name: "dgee", profile: { display_name: "dom_new" } })),
    );
    await h.settle();
    expect(await indexedUnder(h, "dominik")).toEqual({ U0DOM0001: false });
    expect(await indexedUnder(h, "dgee")).toEqual({ U0DOM0001: true });
    await h.adapter.postMessage("slack:C1:1.2", "@dominik @dgee @dom_new");
    expect(postedText(h.fake)).toBe("@dominik <@U0DOM0001> <@U0DOM0001>");
  });

  it("names the user by the new profile at once, without asking Slack", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U0DOM0001", name: "dominik", displayName: "Dominik" });
    const seen = recordMessages(h);
    const say = async () => {
      await h.deliver(h.envelope(messageEvent({ user: "U0DOM0001", text: "hi" })));
      await h.settle();
    };
    await say();
    await say();
    await h.deliver(
      h.envelope(
        changed({
          id: "U0DOM0001",
          name: "dominik",
          profile: { display_name: "Dom", real_name: "Dominik New" },
        }),
      ),
    );
    await h.settle();
    await say();
    expect(seen.map((s) => s.author.userName)).toEqual(["U0DOM0001", "Dominik", "Dom"]);
    expect(seen.at(-1)?.author.fullName).toBe("Dominik New");
    expect(usersInfoIds(h.fake)).toEqual(["U0DOM0001"]);
  });
});

describe("handleWebhook - event_callback", () => {
  it("resolves reaction user display name", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U123", name: "alice", realName: "Alice Example", displayName: "Alice" });
    const parent = h.fake.store.add({
      channel: "C456",
      text: "hi",
      user: "U1",
      team: h.fake.teamId,
    });
    const users: unknown[] = [];
    h.chat.onReaction((event) => {
      users.push(event.user);
    });
    await h.deliver(
      h.envelope({
        type: "reaction_added",
        user: "U123",
        reaction: "thumbsup",
        item: { type: "message", channel: "C456", ts: parent.ts },
      }),
    );
    await h.settle();
    expect(h.fake.callsOf("users.info")[0]?.args).toMatchObject({ user: "U123" });
    expect(users).toEqual([
      expect.objectContaining({ userId: "U123", userName: "Alice", fullName: "Alice Example" }),
    ]);
  });
});

describe("W-prefixed enterprise user IDs", () => {
  it("names <@W…> mentions like <@U…> ones once looked up (Baton: from the next message on)", async () => {
    const h = await harness();
    h.fake.addUser({
      id: "W012345AB",
      name: "wanda",
      realName: "Wanda Grid",
      displayName: "Wanda",
    });
    const seen = recordMessages(h);
    for (let i = 0; i < 2; i += 1) {
      await h.deliver(
        h.envelope(
          messageEvent({ user: "W0SENDER1", username: "sender", text: "hello <@W012345AB>" }),
        ),
      );
      await h.settle();
    }
    expect(seen.map((s) => s.text)).toEqual(["hello @W012345AB", "hello @Wanda"]);
    expect(usersInfoIds(h.fake)).toContain("W012345AB");
  });
});
