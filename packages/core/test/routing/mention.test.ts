import { describe, expect, it } from "vitest";
import { Message, type MessageInit } from "../../src/model/index.js";
import { type BotIdentity, detectMention, resolveIsMention } from "../../src/routing/index.js";

const bot: BotIdentity = { userName: "acme", botUserId: "U0BOT" };

function message(text: string, isMention?: boolean): Message {
  const init: MessageInit = {
    id: "m-1",
    threadId: "slack:C1:1700000000.000100",
    text,
    author: { userId: "U9", userName: "ada", fullName: "Ada", isBot: false, isMe: false },
    metadata: { dateSent: new Date("2024-03-01T10:00:00.000Z"), edited: false },
  };
  if (isMention !== undefined) init.isMention = isMention;
  return new Message(init);
}

describe("detectMention", () => {
  // Upstream chat 4.38.1 describes its cases as "<text> (<why>)"; the data here is our own.
  it.each([
    ["jane@acme.com", "an email address whose domain starts with the bot name"],
    ["first.last@acme.io", "an email address with a dotted local part"],
    ["first-last@acme.io", "an email address with a hyphenated local part"],
    ["ask ops@acme about it", "an address without a domain"],
    ["https://deploy@acme.example.com/status", "URL userinfo"],
    ["foo@acme", "the handle glued to a preceding word"],
    ["@acmebot hello", "a longer handle"],
    ["@acme_2 hello", "an underscore-suffixed handle"],
    ["@acme-staging hello", "a hyphen-suffixed handle"],
    ["@U0BOT-old hello", "a hyphen-suffixed user id"],
    ["<@U0BOTX> hello", "another user's id entity"],
    ["acme, are you there?", "the bare name without @"],
  ])("should not treat %s as a mention (%s)", (text) => {
    expect(detectMention(text, bot)).toBe(false);
  });

  it.each([
    ["@acme", "the whole message"],
    ["hey @ACME can you help", "a different letter case"],
    ["(@acme)", "inside parentheses"],
    ["cc:@acme", "after a colon"],
    ["wait…@acme", "after an ellipsis"],
    ["@acme, thoughts?", "before a comma"],
    ["ask @acme.", "at the end of a sentence"],
    ["@acme[bot] please review", "with GitHub's app suffix"],
    ["@U0BOT ping", "by user id"],
    ["<@U0BOT> ping", "as a user-id entity"],
    ["<@!U0BOT> ping", "as a nickname user-id entity"],
    ["<@u0bot> ping", "as a user-id entity in another letter case"],
  ])("should still detect %s as a mention (%s)", (text) => {
    expect(detectMention(text, bot)).toBe(true);
  });

  it("detects a mention on its own line among other lines", () => {
    expect(detectMention("first line\n@acme\nlast line", bot)).toBe(true);
    expect(detectMention("first line\r\n@acme", bot)).toBe(true);
  });

  it("does not detect a handle glued to the following word", () => {
    expect(detectMention("@acmehi there", bot)).toBe(false);
  });

  it("treats regular-expression characters in the bot's name literally", () => {
    const dotted: BotIdentity = { userName: "a.b+" };
    expect(detectMention("hi @a.b+ there", dotted)).toBe(true);
    expect(detectMention("hi @axbb there", dotted)).toBe(false);
  });

  it("matches a name that itself ends in a bracket suffix", () => {
    expect(detectMention("@acme[bot] review this", { userName: "acme[bot]" })).toBe(true);
    expect(detectMention("@acme review this", { userName: "acme[bot]" })).toBe(false);
  });

  it("ignores the user-id forms when the bot has no user id", () => {
    const nameOnly: BotIdentity = { userName: "acme" };
    expect(detectMention("@U0BOT ping", nameOnly)).toBe(false);
    expect(detectMention("<@U0BOT> ping", nameOnly)).toBe(false);
    expect(detectMention("@undefined ping", nameOnly)).toBe(false);
  });

  it("never matches an empty user name or user id, so a stray @ is no mention", () => {
    const blank: BotIdentity = { userName: "", botUserId: "" };
    expect(detectMention("@", blank)).toBe(false);
    expect(detectMention("@ hello", blank)).toBe(false);
    expect(detectMention("<@> hello", blank)).toBe(false);
    expect(detectMention("<@U0BOT> hello", { userName: "", botUserId: "U0BOT" })).toBe(true);
  });

  it("finds no mention in empty text", () => {
    expect(detectMention("", bot)).toBe(false);
  });
});

describe("resolveIsMention", () => {
  it("keeps the adapter's explicit true even when the text names nobody", () => {
    expect(resolveIsMention(message("please summarize", true), bot)).toBe(true);
  });

  it("keeps the adapter's explicit false even when the text holds @userName", () => {
    expect(resolveIsMention(message("@acme please summarize", false), bot)).toBe(false);
  });

  it("falls back to the text when the adapter left isMention undefined", () => {
    expect(resolveIsMention(message("@acme please summarize"), bot)).toBe(true);
    expect(resolveIsMention(message("mail jane@acme.com"), bot)).toBe(false);
  });

  it("does not write the result onto the message", () => {
    const unknown = message("@acme hi");
    resolveIsMention(unknown, bot);
    expect(unknown.isMention).toBeUndefined();
  });
});
