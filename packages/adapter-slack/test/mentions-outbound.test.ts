/**
 * Outbound mentions: a bare `@name` in what the bot posts becomes `<@U…>` through the reverse
 * name index in the State (filled by every user looked up), disambiguated by the thread's
 * participants. Ports upstream's `reverse user lookup` cases and markdown.test.ts's mention cases
 * where Baton behaves the same; the Baton-titled tests pin where it deliberately does not (ADR 0027).
 */
import { paragraph, root, text } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createSlackAdapter, SlackFormatConverter } from "../src/index.js";
import { startFakeSlack } from "../src/testing/index.js";
import {
  harness,
  indexedUnder,
  knownUser,
  messageEvent,
  participantsOf,
  postedText,
} from "./names-helpers.js";
import { TEST_RETRY } from "./slack-harness.js";

const THREAD = "slack:C123:1234567890.123456";

/** A harness whose reverse index knows each `[id, name]` (each user looked up once). */
async function withUsers(...users: Array<[string, string]>) {
  const h = await harness();
  for (const [id, name] of users) await knownUser(h, { id, name });
  return h;
}

/** What the fake received when the bot posted `text` to {@link THREAD}. */
async function posted(h: Awaited<ReturnType<typeof harness>>, text: string) {
  await h.adapter.postMessage(THREAD, text);
  return postedText(h.fake);
}

describe("reverse user lookup", () => {
  describe("reverse index storage in lookupUser", () => {
    it("stores reverse index when looking up a user", async () => {
      const h = await harness();
      h.fake.addUser({
        id: "U_DOM_123",
        name: "dominik",
        displayName: "dominik",
        realName: "Dominik G",
      });
      await h.adapter.getUser("U_DOM_123");
      expect(await indexedUnder(h, "dominik")).toEqual({ U_DOM_123: true });
    });
  });

  describe("resolveOutgoingMentions", () => {
    it("resolves unambiguous @mention to <@USER_ID>", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      expect(await posted(h, "Hey @dominik, check this out")).toBe(
        "Hey <@U_DOM_123>, check this out",
      );
    });

    it("handles case insensitivity", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      expect(await posted(h, "Hey @Dominik!")).toBe("Hey <@U_DOM_123>!");
    });

    it("does not resolve @handles inside URLs", async () => {
      const h = await withUsers(
        ["U_URL_123", "jkyang"],
        ["U_DOM_123", "dominik"],
        ["U_EMAIL_123", "example"],
      );
      expect(
        await posted(
          h,
          "See https://hackmd.io/@jkyang/abc, https://example.com/p?user=@jkyang, https://example.com/docs#@jkyang, hackmd.io/@jkyang/abc, <https://example.com/@jkyang|profile>, and user@example.com cc @dominik",
        ),
      ).toBe(
        "See https://hackmd.io/@jkyang/abc, https://example.com/p?user=@jkyang, https://example.com/docs#@jkyang, hackmd.io/@jkyang/abc, <https://example.com/@jkyang|profile>, and user@example.com cc <@U_DOM_123>",
      );
    });

    it("deduplicates user IDs from reverse index", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"], ["U_DOM_123", "dominik"]);
      expect(h.fake.callsOf("users.info")).toHaveLength(2);
      expect(await indexedUnder(h, "dominik")).toEqual({ U_DOM_123: true });
      expect(await posted(h, "Hey @dominik")).toBe("Hey <@U_DOM_123>");
    });

    it("leaves mention as plain text when no match found", async () => {
      const h = await harness();
      expect(await posted(h, "Hey @unknown_user")).toBe("Hey @unknown_user");
    });

    it("skips already-resolved <@USER_ID> mentions", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      expect(await posted(h, "Hey <@U_DOM_123> and @dominik")).toBe(
        "Hey <@U_DOM_123> and <@U_DOM_123>",
      );
    });

    it("disambiguates using thread participants", async () => {
      const h = await withUsers(["U_ALEX_1", "alex"], ["U_ALEX_2", "alex"]);
      // Only U_ALEX_2 wrote in the thread.
      await h.deliver(
        h.envelope(messageEvent({ user: "U_ALEX_2", channel: "C123", ts: "1234567890.123456" })),
      );
      await h.settle();
      expect(await participantsOf(h, THREAD)).toEqual({ U_ALEX_2: true });
      expect(await posted(h, "Hey @alex")).toBe("Hey <@U_ALEX_2>");
    });

    it("leaves ambiguous mentions as plain text when thread participants don't help", async () => {
      const h = await withUsers(["U_ALEX_1", "alex"], ["U_ALEX_2", "alex"]);
      for (const user of ["U_ALEX_1", "U_ALEX_2"]) {
        await h.deliver(
          h.envelope(messageEvent({ user, channel: "C123", thread_ts: "1234567890.123456" })),
        );
      }
      await h.settle();
      expect(await participantsOf(h, THREAD)).toEqual({ U_ALEX_1: true, U_ALEX_2: true });
      expect(await posted(h, "Hey @alex")).toBe("Hey @alex");
    });

    it("resolves multiple different mentions in one message", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"], ["U_MAL_456", "malte"]);
      expect(await posted(h, "@dominik and @malte please review")).toBe(
        "<@U_DOM_123> and <@U_MAL_456> please review",
      );
    });

    it("does nothing when chat is not initialized", async () => {
      const fake = await startFakeSlack();
      try {
        const adapter = createSlackAdapter({
          botToken: fake.botToken,
          signingSecret: fake.signingSecret,
          apiUrl: fake.apiUrl,
          retryConfig: TEST_RETRY,
        });
        await adapter.postMessage(THREAD, "Hey @dominik");
        expect(postedText(fake)).toBe("Hey @dominik");
      } finally {
        await fake.close();
      }
    });

    it("skips mentions inside inline code (backticks)", async () => {
      const h = await withUsers(["U_VER_123", "vercel"]);
      expect(await posted(h, "Use `@vercel/postgres` for the database")).toBe(
        "Use `@vercel/postgres` for the database",
      );
    });

    it("skips mentions inside code blocks (triple backticks)", async () => {
      const h = await withUsers(["U_VER_123", "vercel"]);
      expect(await posted(h, "Install:\n```\nnpm install @vercel/postgres\n```")).toBe(
        "Install:\n```\nnpm install @vercel/postgres\n```",
      );
    });

    it("resolves mentions outside code but skips those inside", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"], ["U_VER_123", "vercel"]);
      expect(await posted(h, "Hey @dominik, use `@vercel/postgres` for this")).toBe(
        "Hey <@U_DOM_123>, use `@vercel/postgres` for this",
      );
    });

    it("handles multiple inline code spans with mentions", async () => {
      const h = await withUsers(["U_NEON_123", "neondatabase"], ["U_VER_123", "vercel"]);
      expect(await posted(h, "Use `@neondatabase/serverless` or `@vercel/postgres`")).toBe(
        "Use `@neondatabase/serverless` or `@vercel/postgres`",
      );
    });

    it("resolves the same name outside code while skipping it inside code", async () => {
      const h = await withUsers(["U_VER_123", "vercel"]);
      expect(await posted(h, "Ping @vercel, but don't link `@vercel/postgres`")).toBe(
        "Ping <@U_VER_123>, but don't link `@vercel/postgres`",
      );
    });

    it("resolves a mention immediately following an inline code span", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      expect(await posted(h, "Run `npm i` then ping @dominik")).toBe(
        "Run `npm i` then ping <@U_DOM_123>",
      );
    });

    it("resolves a mention immediately preceding an inline code span", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      expect(await posted(h, "@dominik try `npm i`")).toBe("<@U_DOM_123> try `npm i`");
    });

    it("resolves mentions surrounding a multiline fenced code block", async () => {
      const h = await withUsers(
        ["U_DOM_123", "dominik"],
        ["U_GEO_123", "george"],
        ["U_VER_123", "vercel"],
      );
      expect(
        await posted(h, "Hey @dominik:\n```bash\nnpm install @vercel/postgres\n```\ncc @george"),
      ).toBe("Hey <@U_DOM_123>:\n```bash\nnpm install @vercel/postgres\n```\ncc <@U_GEO_123>");
    });

    it("does not skip a mention after an unbalanced single backtick", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      expect(await posted(h, "Cost is `5 and @dominik should know")).toBe(
        "Cost is `5 and <@U_DOM_123> should know",
      );
    });

    it("skips a mention inside inline code at the start of the text", async () => {
      const h = await withUsers(["U_VER_123", "vercel"]);
      expect(await posted(h, "`@vercel/postgres` is the package")).toBe(
        "`@vercel/postgres` is the package",
      );
    });
  });

  describe("resolveMessageMentions", () => {
    it("resolves mentions in string messages", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      await h.adapter.postMessage(THREAD, "Hey @dominik");
      expect(postedText(h.fake)).toBe("Hey <@U_DOM_123>");
    });

    it("resolves mentions in raw messages", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      await h.adapter.postMessage(THREAD, { raw: "Hey @dominik" });
      expect(postedText(h.fake)).toBe("Hey <@U_DOM_123>");
    });

    it("resolves mentions in markdown messages", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      await h.adapter.postMessage(THREAD, { markdown: "Hey @dominik" });
      // Markdown is sent rendered as mrkdwn text (ADR 0022); the mention survives rendering.
      expect(postedText(h.fake)).toBe("Hey <@U_DOM_123>");
    });

    it("passes through AST messages unchanged", async () => {
      const h = await withUsers(["U_DOM_123", "dominik"]);
      const ast = root([paragraph([text("Hey @dominik")])]);
      await h.adapter.postMessage(THREAD, { ast });
      expect(postedText(h.fake)).toBe("Hey @dominik");
    });
  });
});

describe("W-prefixed enterprise user IDs", () => {
  it("treats bare @W… mentions as raw user IDs, not display names", async () => {
    // A user whose display name looks like an id is not indexed under it …
    const h = await withUsers(["U0ODD0001", "W012345AB"]);
    expect(await indexedUnder(h, "w012345ab")).toBeNull();
    // … and the id itself is written as the mention, with no look-up by name.
    expect(await posted(h, "Hey @W012345AB, ping")).toBe("Hey <@W012345AB>, ping");
  });
});

describe("outbound mentions across edits, ephemeral and scheduled messages", () => {
  it("resolves @name in edits, ephemeral and scheduled messages like in posts", async () => {
    const h = await withUsers(["U_DOM_123", "dominik"]);
    const sent = await h.adapter.postMessage(THREAD, "first");
    await h.adapter.editMessage(THREAD, sent.id, "Hey @dominik");
    await h.adapter.postEphemeral(THREAD, "U_DOM_123", { markdown: "psst @dominik" });
    await h.adapter.scheduleMessage(
      THREAD,
      { raw: "later @dominik" },
      {
        postAt: new Date(h.clock.now() + 3_600_000),
      },
    );
    expect(h.fake.callsOf("chat.update")[0]?.args.text).toBe("Hey <@U_DOM_123>");
    expect(h.fake.callsOf("chat.postEphemeral")[0]?.args.text).toBe("psst <@U_DOM_123>");
    expect(h.fake.callsOf("chat.scheduleMessage")[0]?.args.text).toBe("later <@U_DOM_123>");
  });

  it("forgets a user's old name at the next look-up, also without a user_change event", async () => {
    const h = await withUsers(["U0DOM0001", "dominik"]);
    h.fake.addUser({ id: "U0DOM0001", name: "dom" });
    await h.adapter.getUser("U0DOM0001");
    expect(await posted(h, "Hey @dominik and @dom")).toBe("Hey @dominik and <@U0DOM0001>");
    expect(await indexedUnder(h, "dominik")).toEqual({ U0DOM0001: false });
  });

  it("writes a bare @U… id as <@U…> without reading the index", async () => {
    const h = await harness();
    const reads: string[] = [];
    const get = h.state.get.bind(h.state);
    h.state.get = (key) => {
      reads.push(key);
      return get(key);
    };
    expect(await posted(h, "ask @U0123ABCD or @U2 (not an id)")).toBe(
      "ask <@U0123ABCD> or @U2 (not an id)",
    );
    expect(reads.filter((key) => key.includes("user-by-name"))).toEqual([
      `slack:user-by-name:${h.fake.teamId}:u2`,
    ]);
  });

  it("indexes the handle as well as the display name", async () => {
    const h = await harness();
    await knownUser(h, { id: "U0JANE001", name: "jdoe", displayName: "Jane" });
    expect(await posted(h, "cc @jdoe and @jane")).toBe("cc <@U0JANE001> and <@U0JANE001>");
  });
});

describe("SlackFormatConverter", () => {
  describe("mentions", () => {
    it("does not mangle @handles inside URL paths in plain strings", async () => {
      const h = await withUsers(["U_JK_1", "jkyang"]);
      expect(await posted(h, "See https://hackmd.io/@jkyang/B1W69XA-fe")).toBe(
        "See https://hackmd.io/@jkyang/B1W69XA-fe",
      );
    });

    it("does not mangle @handles inside URL paths in markdown", async () => {
      const h = await withUsers(["U_USER_1", "user"]);
      await h.adapter.postMessage(THREAD, {
        markdown: "See https://mastodon.social/@user for updates",
      });
      // Sent as rendered mrkdwn (ADR 0022): the URL is a link, its @user untouched.
      expect(postedText(h.fake)).toBe("See <https://mastodon.social/@user> for updates");
    });

    it("does not mangle @handles inside URL query strings", async () => {
      const h = await withUsers(["U_GEO_1", "george"]);
      expect(await posted(h, "Profile https://example.com/p?user=@george")).toBe(
        "Profile https://example.com/p?user=@george",
      );
    });

    it("does not mangle @handles inside URL fragments", async () => {
      const h = await withUsers(["U_GEO_1", "george"]);
      expect(await posted(h, "Jump https://example.com/docs#@george")).toBe(
        "Jump https://example.com/docs#@george",
      );
    });

    it("does not mangle @handles inside Slack links", async () => {
      const h = await withUsers(["U_GEO_1", "george"]);
      expect(await posted(h, "See <https://example.com/p?user=@george|George's profile>")).toBe(
        "See <https://example.com/p?user=@george|George's profile>",
      );
    });

    it("does not mangle @handles inside Markdown links", async () => {
      const h = await withUsers(["U_GEO_1", "george"]);
      await h.adapter.postMessage(THREAD, {
        markdown: "See [profile](https://example.com/p?user=@george)",
      });
      expect(postedText(h.fake)).toBe("See <https://example.com/p?user=@george|profile>");
    });

    it("does not mangle @handles inside schemeless host paths", async () => {
      const h = await withUsers(["U_JK_1", "jkyang"]);
      expect(await posted(h, "See hackmd.io/@jkyang/abc")).toBe("See hackmd.io/@jkyang/abc");
    });
  });
});

describe("bare @name in outbound text (Baton: a user id or the text as typed, never <@name>)", () => {
  it("writes known names as <@U…> and leaves unknown ones as typed, in strings and markdown", async () => {
    const h = await withUsers(["U0GEORGE1", "george"]);
    expect(await posted(h, "Hey @george. Please select")).toBe("Hey <@U0GEORGE1>. Please select");
    await h.adapter.postMessage(THREAD, { markdown: "Hey @george. Please select" });
    expect(postedText(h.fake)).toBe("Hey <@U0GEORGE1>. Please select");
    expect(await posted(h, "Hey @nobody. Please select")).toBe("Hey @nobody. Please select");
  });

  it("reads mentions next to punctuation, slashes and hosts, and after a URL", async () => {
    const h = await withUsers(
      ["U0GEORGE1", "george"],
      ["U0ANNE001", "anne"],
      ["U0JK0001", "jkyang"],
    );
    expect(await posted(h, "(cc @george, @anne)")).toBe("(cc <@U0GEORGE1>, <@U0ANNE001>)");
    expect(await posted(h, "cc @george/@anne")).toBe("cc <@U0GEORGE1>/<@U0ANNE001>");
    expect(await posted(h, "See example.com,@george")).toBe("See example.com,<@U0GEORGE1>");
    expect(await posted(h, "See https://hackmd.io/@jkyang/abc cc @george")).toBe(
      "See https://hackmd.io/@jkyang/abc cc <@U0GEORGE1>",
    );
  });

  it("leaves code alone and resolves the mention after it", async () => {
    const h = await withUsers(["U0GEORGE1", "george"], ["U0VERCEL1", "vercel"]);
    expect(await posted(h, "Use `@vercel/postgres` and ping @george")).toBe(
      "Use `@vercel/postgres` and ping <@U0GEORGE1>",
    );
    await h.adapter.postMessage(THREAD, {
      markdown: "Install:\n```\nnpm install @vercel/postgres\n```\ncc @george",
    });
    expect(postedText(h.fake)).toBe(
      "Install:\n\n```\nnpm install @vercel/postgres\n```\n\ncc <@U0GEORGE1>",
    );
  });

  it("reads past a long run of unclosed angle brackets once", async () => {
    const h = await withUsers(["U0GEORGE1", "george"], ["U0JK0001", "jkyang"]);
    const prefix = "<".repeat(20_000);
    expect(await posted(h, `${prefix} https://example.com/@jkyang cc @george`)).toBe(
      `${prefix} https://example.com/@jkyang cc <@U0GEORGE1>`,
    );
  });

  it("never rewrites a bare @name in the converter itself (response URLs included)", () => {
    const converter = new SlackFormatConverter();
    expect(converter.toSlackPayload("Hey @george. Please select")).toEqual({
      text: "Hey @george. Please select",
    });
    expect(converter.toResponseUrlText({ markdown: "See hackmd.io/@jkyang/abc cc @george" })).toBe(
      "See hackmd.io/@jkyang/abc cc @george",
    );
  });
});
