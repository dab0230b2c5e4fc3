import { parseMarkdown, toPlainText } from "@baton/core";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { splitTelegramMarkdown, TelegramFormatConverter } from "../src/index.js";
import { checkMarkdownV2, createTelegramWebhookRequest } from "../src/testing/index.js";
import { createTelegramHarness, SECRET, type TelegramHarness } from "./telegram-harness.js";

const harnesses: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

/** A harness whose handlers record every run, and a check that nothing ran or was written. */
async function guarded() {
  const h = await createTelegramHarness();
  harnesses.push(h);
  const runs: string[] = [];
  h.chat.onDirectMessage((_t, m) => {
    runs.push(m.text);
  });
  h.chat.onAction((event) => {
    runs.push(`action ${event.actionId}`);
  });
  const untouched = async (updateId: number) => {
    await h.settle();
    expect(runs).toEqual([]);
    expect(await h.state.get(`telegram:update:${h.fake.botId}:${updateId}`)).toBeNull();
    expect(h.fake.requests).toEqual([]);
  };
  return { h, runs, untouched };
}

describe("a webhook without Telegram's secret token is refused before anything runs", () => {
  for (const [title, secret] of [
    ["answers 401 to a wrong secret", "not-the-secret"],
    ["answers 401 to a missing secret header", null],
    ["answers 401 to the secret in another case", SECRET.toUpperCase()],
    ["answers 401 to the secret with a suffix", `${SECRET}x`],
    ["answers 401 to an empty secret", ""],
  ] as const) {
    it(title, async () => {
      const { h, untouched } = await guarded();
      const update = h.updates.message("hi");
      expect((await h.deliver(update, secret)).status).toBe(401);
      await untouched(update.update_id);
    });
  }

  it("answers 401 before reading a malformed body", async () => {
    const { h, untouched } = await guarded();
    const response = await h.webhook(
      createTelegramWebhookRequest({ update: null, body: "{{{", secretToken: "wrong" }),
    );
    expect(response.status).toBe(401);
    await untouched(0);
  });

  it("refuses every webhook when no secret token is configured", async () => {
    const h = await createTelegramHarness({ secretToken: undefined });
    harnesses.push(h);
    const runs: string[] = [];
    h.chat.onDirectMessage((_t, m) => {
      runs.push(m.text);
    });
    expect((await h.deliver(h.updates.message("hi"), null)).status).toBe(401);
    expect(runs).toEqual([]);
  });

  it("answers 413 to an oversized body and 405 to a GET", async () => {
    const { h, untouched } = await guarded();
    const big = createTelegramWebhookRequest({
      update: null,
      body: "x".repeat(2 * 1024 * 1024),
      secretToken: SECRET,
    });
    expect((await h.webhook(big)).status).toBe(413);
    const get = new Request("https://bot.example.com/api/telegram", { method: "GET" });
    expect((await h.webhook(get)).status).toBe(405);
    await untouched(0);
  });
});

describe("fuzzed bodies", () => {
  it("answers 4xx or 200 to any JSON value, never crashing or dispatching garbage", async () => {
    const { h } = await guarded();
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const response = await h.webhook(
          createTelegramWebhookRequest({ update: value, secretToken: SECRET }),
        );
        expect([200, 400]).toContain(response.status);
      }),
      { numRuns: 150 },
    );
  });

  it("answers 400 to updates whose fields have the wrong types", async () => {
    const { h } = await guarded();
    const bodies = [
      { update_id: "1" },
      { update_id: 1, message: { message_id: "x", chat: { id: 1, type: "private" } } },
      { update_id: 2, message: { message_id: 1, chat: { id: "1" } } },
      { update_id: 3, message: { message_id: 1, chat: { id: 1, type: "private" }, text: 5 } },
      {
        update_id: 4,
        message: { message_id: 1, chat: { id: 1, type: "private" }, entities: [{ type: "bold" }] },
      },
      { update_id: 5, callback_query: { id: 1 } },
      { update_id: 6, message_reaction: { chat: { id: 1 } } },
      [1, 2, 3],
    ];
    for (const body of bodies) {
      const response = await h.webhook(
        createTelegramWebhookRequest({ update: body, secretToken: SECRET }),
      );
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("accepts random mutations of a real update without crashing", async () => {
    const { h } = await guarded();
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.integer(),
        fc.array(
          fc.record({
            type: fc.constantFrom("bold", "mention", "bot_command", "text_link"),
            offset: fc.integer({ min: -5, max: 40 }),
            length: fc.integer({ min: -5, max: 40 }),
          }),
        ),
        async (text, chatId, entities) => {
          const update = h.updates.message(text, {
            chat: { id: chatId, type: chatId > 0 ? "private" : "group" },
            entities,
          });
          const response = await h.webhook(
            createTelegramWebhookRequest({ update, secretToken: SECRET }),
          );
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("MarkdownV2 escaping", () => {
  const converter = new TelegramFormatConverter();

  it("renders any markdown to MarkdownV2 that Telegram's parser accepts", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(..."ab *_~`[]()#+-=|{}.!>\\\n1. -|é😀"),
          maxLength: 120,
        }),
        (text) => {
          const rendered = converter.fromAst(parseMarkdown(text));
          const checked = checkMarkdownV2(rendered);
          expect(checked, `${JSON.stringify(text)} → ${JSON.stringify(rendered)}`).toMatchObject({
            ok: true,
          });
        },
      ),
      { numRuns: 600 },
    );
  }, 30_000);

  it("renders any unicode text to MarkdownV2 that Telegram's parser accepts", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        const checked = checkMarkdownV2(converter.fromAst(parseMarkdown(text)));
        expect(checked.ok, JSON.stringify(text)).toBe(true);
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it("splits any long markdown into parts of at most 4 096 characters that each parse", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom(..."ab *_`.!\n-#"), maxLength: 600 }), {
          minLength: 1,
          maxLength: 20,
        }),
        (blocks) => {
          const markdown = blocks.join("\n\n").repeat(3);
          for (const part of splitTelegramMarkdown(markdown, 1_000)) {
            expect(part.length).toBeLessThanOrEqual(1_000);
            expect(checkMarkdownV2(part).ok, JSON.stringify(part)).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 30_000);

  it("is accepted by the fake Bot API end to end", async () => {
    const h = await createTelegramHarness();
    harnesses.push(h);
    const samples = fc.sample(
      fc.string({
        unit: fc.constantFrom(..."ab *_~`[]()#+-=|{}.!>\\\n"),
        minLength: 1,
        maxLength: 60,
      }),
      60,
    );
    for (const text of samples) {
      // Markdown that shows nothing is refused before Telegram (a ValidationError), not sent.
      if (toPlainText(parseMarkdown(text)).trim() === "") continue;
      await h.adapter.postMessage("telegram:7527593", { markdown: text });
    }
    expect(
      h.fake.calls("sendMessage").every((call) => call.params.parse_mode === "MarkdownV2"),
    ).toBe(true);
  });
});

describe("the fake Bot API parses MarkdownV2 as Telegram does", () => {
  it("refuses an unescaped reserved character with Telegram's wording", () => {
    expect(checkMarkdownV2("Price 9.99")).toEqual({
      ok: false,
      error:
        "can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
    });
  });

  it("refuses an unclosed entity with its byte offset", () => {
    expect(checkMarkdownV2("é *bold")).toMatchObject({
      ok: false,
      error: expect.stringContaining("byte offset 3"),
    });
  });

  it("accepts escapes, code, links and quotes, and reports the visible text", () => {
    expect(checkMarkdownV2(">quote *b* _i_ `a.b` [l](https://x.y/(z\\)) 1\\.")).toEqual({
      ok: true,
      visible: "quote b i a.b l 1.",
    });
  });
});
