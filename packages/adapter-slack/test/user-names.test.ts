/**
 * Inbound user names: before the webhook answers, `<@U…>`, `<#C…>` and the author are named from
 * this instance's cache only (no Slack API call); what the cache lacks is looked up after the
 * answer — through the Chat's cached `getUser`, shared by every instance through the State — so
 * later messages read the names (ADR 0027). Ports upstream's cases where Baton behaves the same.
 */
import { describe, expect, it } from "vitest";
import { NAME_CACHE_TTL_MS } from "../src/user-names.js";
import { A, install, multi } from "./installs-fixtures.js";
import {
  harness,
  messageEvent,
  participantsOf,
  recordMessages,
  twoInstances,
  usersInfoIds,
} from "./names-helpers.js";

const JOHN = {
  id: "UOTHER123",
  name: "johndoe",
  realName: "John Doe",
  displayName: "John",
};

describe("resolveInlineMentions", () => {
  it("reads <@U…> as @U… before the answer and as the user's name once looked up (Baton: no users.info before the answer)", async () => {
    const h = await harness();
    h.fake.addUser(JOHN);
    const seen = recordMessages(h);
    let learned = false;
    const response = await h.webhook(
      h.request({
        json: h.envelope(
          messageEvent({ user: "U0SENDER1", text: "Hey <@UOTHER123> check this out" }),
        ),
      }),
      {
        waitUntil: (task) => {
          h.waitUntil(task.then(() => (learned = true)));
        },
      },
    );
    // The handler ran before the answer (sync dispatch) and no users.info had been asked.
    expect(response.status).toBe(200);
    expect(seen).toMatchObject([
      { text: "Hey @UOTHER123 check this out", usersInfoCallsBefore: 0 },
    ]);
    // The look-ups were handed over, still running when the answer went out.
    expect(learned).toBe(false);
    await h.settle();
    expect(learned).toBe(true);
    expect(usersInfoIds(h.fake).sort()).toEqual(["U0SENDER1", "UOTHER123"]);

    await h.deliver(
      h.envelope(messageEvent({ user: "U0SENDER1", text: "Hey <@UOTHER123> again" })),
    );
    await h.settle();
    expect(seen[1]?.text).toBe("Hey @John again");
    expect(h.fake.callsOf("users.info")).toHaveLength(2);
  });

  it("skips self-mention resolution in incoming webhooks", async () => {
    const h = await harness({ botUserId: "U_BOT" });
    const seen = recordMessages(h);
    for (const ts of ["1234567890.666666", "1234567890.777777"]) {
      await h.deliver(
        h.envelope({
          type: "app_mention",
          user: "U_SENDER",
          channel: "C456",
          text: "<@U_BOT> help me",
          ts,
        }),
      );
      await h.settle();
    }
    expect(seen.map((s) => s.text)).toEqual(["@U_BOT help me", "@U_BOT help me"]);
    expect(usersInfoIds(h.fake)).not.toContain("U_BOT");
  });

  it("skips request-scoped self mention resolution in multi-workspace mode", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope(
        {
          type: "app_mention",
          user: "U0HUMAN001",
          channel: "C0CHAN0001",
          text: `<@${A.botUserId}> help me`,
          ts: "1234567890.666666",
          team: A.teamId,
        },
        { team_id: A.teamId },
      ),
    );
    await h.settle();
    expect(seen.map((s) => s.text)).toEqual([`@${A.botUserId} help me`]);
    expect(usersInfoIds(h.fake)).not.toContain(A.botUserId);
  });

  it("reads <#C…> as #C… before the answer and as #name once conversations.info named it (Baton: no conversations.info before the answer)", async () => {
    const h = await harness();
    h.fake.store.channelNames.set("C789", "general");
    const seen = recordMessages(h);
    await h.deliver(h.envelope(messageEvent({ user: "U0SENDER1", text: "Check out <#C789>" })));
    expect(seen[0]?.text).toBe("Check out #C789");
    expect(h.fake.callsOf("conversations.info")).toHaveLength(0);
    await h.settle();
    await h.deliver(h.envelope(messageEvent({ user: "U0SENDER1", text: "Check out <#C789>" })));
    expect(seen[1]?.text).toBe("Check out #general");
    expect(h.fake.callsOf("conversations.info")).toHaveLength(1);
  });

  it("leaves channel mentions with existing labels unchanged", async () => {
    const h = await harness();
    const seen = recordMessages(h);
    await h.deliver(
      h.envelope(messageEvent({ user: "U0SENDER1", text: "Check out <#C789|existing-name>" })),
    );
    await h.settle();
    expect(seen[0]?.text).toContain("#existing-name");
    expect(h.fake.callsOf("conversations.info")).toHaveLength(0);
  });

  it("falls back to channel ID when conversations.info fails", async () => {
    const h = await harness();
    h.fake.store.channelErrors.set("CUNKNOWN", "channel_not_found");
    const seen = recordMessages(h);
    for (let i = 0; i < 2; i += 1) {
      await h.deliver(
        h.envelope(messageEvent({ user: "U0SENDER1", text: "Check out <#CUNKNOWN>" })),
      );
      await h.settle();
    }
    expect(seen.map((s) => s.text)).toEqual(["Check out #CUNKNOWN", "Check out #CUNKNOWN"]);
    // The failed answer is remembered like a name: one call, not one per message.
    expect(h.fake.callsOf("conversations.info")).toHaveLength(1);
  });
});

describe("names from this instance's cache", () => {
  it("names the author from the second message on, with one users.info per user", async () => {
    const h = await harness();
    h.fake.addUser({
      id: "U0ALICE01",
      name: "alice",
      displayName: "Alice",
      realName: "Alice Example",
    });
    const seen = recordMessages(h);
    for (let i = 0; i < 3; i += 1) {
      await h.deliver(h.envelope(messageEvent({ user: "U0ALICE01", text: "hi" })));
      await h.settle();
    }
    expect(seen.map((s) => [s.author.userName, s.author.fullName])).toEqual([
      ["U0ALICE01", "U0ALICE01"],
      ["Alice", "Alice Example"],
      ["Alice", "Alice Example"],
    ]);
    expect(usersInfoIds(h.fake)).toEqual(["U0ALICE01"]);
  });

  it("keeps naming a known user after its cache entry expired, and refreshes it after the answer", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U0ALICE01", name: "alice", displayName: "Alice" });
    const seen = recordMessages(h);
    const say = async () => {
      await h.deliver(h.envelope(messageEvent({ user: "U0ALICE01", text: "hi" })));
      await h.settle();
    };
    await say();
    await say();
    await h.clock.advance(NAME_CACHE_TTL_MS + 1);
    h.fake.addUser({ id: "U0ALICE01", name: "alice", displayName: "Alice B" });
    await say();
    await say();
    expect(seen.map((s) => s.author.userName)).toEqual(["U0ALICE01", "Alice", "Alice", "Alice B"]);
    expect(usersInfoIds(h.fake)).toEqual(["U0ALICE01", "U0ALICE01"]);
    // Past the grace period a name nobody refreshed is dropped: the id again, then a look-up.
    await h.clock.advance(2 * NAME_CACHE_TTL_MS + 1);
    await say();
    expect(seen.at(-1)?.author.userName).toBe("U0ALICE01");
    expect(usersInfoIds(h.fake)).toHaveLength(3);
  });

  it("labels edits from the cache and learns the names they mention", async () => {
    const h = await harness();
    h.fake.addUser(JOHN);
    const edits: string[] = [];
    h.chat.onMessageUpdated((_thread, message) => {
      edits.push(message.text);
    });
    const edit = (text: string) =>
      h.envelope({
        type: "message",
        subtype: "message_changed",
        channel: "C456",
        message: { type: "message", user: "U0SENDER1", text, ts: "1700000000.000001" },
        previous_message: {
          type: "message",
          user: "U0SENDER1",
          text: "before",
          ts: "1700000000.000001",
        },
      });
    await h.deliver(edit("cc <@UOTHER123>"));
    await h.settle();
    await h.deliver(edit("cc <@UOTHER123>!"));
    await h.settle();
    expect(edits).toEqual(["cc @UOTHER123", "cc @John!"]);
  });
});

describe("a name cache shared through the State", () => {
  it("asks Slack once per user for two instances, and each names the user once it learned it", async () => {
    const c = await twoInstances();
    c.fake.addUser(JOHN);
    const say = (instance: typeof c.a) =>
      instance.deliver(messageEvent({ user: "UOTHER123", text: "hello" }));
    await say(c.a);
    await c.settle();
    expect(usersInfoIds(c.fake)).toEqual(["UOTHER123"]);
    // B's own cache is empty: its first message reads the id, its look-up hits the State.
    await say(c.b);
    await c.settle();
    await say(c.b);
    await c.settle();
    expect(c.b.seen.map((s) => s.author.userName)).toEqual(["UOTHER123", "John"]);
    expect(usersInfoIds(c.fake)).toEqual(["UOTHER123"]);
  });

  it("makes one users.info call when two instances learn the same user at once", async () => {
    const c = await twoInstances();
    c.fake.addUser(JOHN);
    await Promise.all([
      c.a.deliver(messageEvent({ user: "U0SENDER1", text: "see <@UOTHER123>" })),
      c.b.deliver(messageEvent({ user: "U0SENDER1", text: "and <@UOTHER123>" })),
    ]);
    // The clock moves only while no look-up is in flight (a pending mark in the State).
    await c.settle(async () => {
      const marks = await Promise.all(
        ["U0SENDER1", "UOTHER123"].map((id) => c.state.get(`user:slack:${id}`)),
      );
      return marks.some((mark) => (mark as { status?: string } | null)?.status === "pending");
    });
    expect(usersInfoIds(c.fake).sort()).toEqual(["U0SENDER1", "UOTHER123"]);
    await c.b.deliver(messageEvent({ user: "U0SENDER1", text: "and <@UOTHER123>" }));
    expect(c.b.seen.at(-1)?.text).toBe("and @John");
  });

  it("shares the reverse name index: a user one instance looked up is mentionable from the other", async () => {
    const c = await twoInstances();
    c.fake.addUser({ id: "U_DOM_123", name: "dominik" });
    await c.a.adapter.getUser("U_DOM_123");
    await c.b.adapter.postMessage("slack:C123:1234567890.123456", "Hey @dominik");
    expect(c.fake.callsOf("chat.postMessage")[0]?.args.text).toBe("Hey <@U_DOM_123>");
  });
});

describe("reverse user lookup", () => {
  describe("thread participant tracking", () => {
    it("tracks thread participants on incoming messages", async () => {
      const h = await harness();
      h.fake.addUser({ id: "U_SENDER_1", name: "sender", realName: "Sender One" });
      const threadId = "slack:C123:1234567890.123456";
      await h.deliver(
        h.envelope({
          type: "message",
          user: "U_SENDER_1",
          text: "Hello",
          ts: "1234567890.123456",
          channel: "C123",
          thread_ts: "1234567890.123456",
        }),
      );
      await h.settle();
      expect(await participantsOf(h, threadId)).toEqual({ U_SENDER_1: true });
    });

    it("does not count the bot itself as a participant", async () => {
      const h = await harness();
      await h.deliver(
        h.envelope(
          messageEvent({ user: h.fake.botUserId, channel: "C123", ts: "1234567890.123456" }),
        ),
      );
      await h.settle();
      expect(await participantsOf(h, "slack:C123:1234567890.123456")).toBeNull();
      expect(usersInfoIds(h.fake)).toEqual([]);
    });
  });
});
