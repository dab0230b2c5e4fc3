import { ValidationError } from "@baton/core";
import { describe, expect, it } from "vitest";
import {
  cardToTelegramInlineKeyboard,
  cardToTelegramText,
  decodeTelegramCallbackData,
  emptyTelegramInlineKeyboard,
  encodeTelegramCallbackData,
} from "../src/index.js";

describe("cardToTelegramInlineKeyboard", () => {
  it("returns undefined when card has no actions", () => {
    const keyboard = cardToTelegramInlineKeyboard({
      type: "card",
      title: "No actions",
      children: [{ type: "text", content: "hi" }],
    });
    expect(keyboard).toBeUndefined();
  });

  it("converts multiple actions blocks into multiple keyboard rows", () => {
    const keyboard = cardToTelegramInlineKeyboard({
      type: "card",
      children: [
        {
          type: "actions",
          children: [
            { type: "button", id: "a", label: "A" },
            { type: "button", id: "b", label: "B" },
          ],
        },
        {
          type: "section",
          children: [
            {
              type: "actions",
              children: [{ type: "link-button", label: "Docs", url: "https://chat-sdk.dev" }],
            },
          ],
        },
      ],
    });
    expect(keyboard).toEqual({
      inline_keyboard: [
        [
          { text: "A", callback_data: encodeTelegramCallbackData("a") },
          { text: "B", callback_data: encodeTelegramCallbackData("b") },
        ],
        [{ text: "Docs", url: "https://chat-sdk.dev" }],
      ],
    });
  });

  it("ignores unsupported action controls", () => {
    const keyboard = cardToTelegramInlineKeyboard({
      type: "card",
      children: [
        {
          type: "actions",
          children: [
            {
              type: "select",
              id: "priority",
              label: "Priority",
              options: [{ label: "High", value: "high" }],
            },
          ],
        },
      ],
    } as never);
    expect(keyboard).toBeUndefined();
  });

  it("leaves disabled buttons out: they can send nothing", () => {
    const keyboard = cardToTelegramInlineKeyboard({
      type: "card",
      children: [
        {
          type: "actions",
          children: [
            { type: "button", id: "off", label: "Off", disabled: true },
            { type: "button", id: "on", label: "On" },
          ],
        },
      ],
    });
    expect(keyboard?.inline_keyboard).toEqual([[{ text: "On", callback_data: 'chat:{"a":"on"}' }]]);
  });
});

describe("callback payload encoding", () => {
  it("encodes and decodes callback payload with value", () => {
    const encoded = encodeTelegramCallbackData("approve", "request-123");
    expect(decodeTelegramCallbackData(encoded)).toEqual({
      actionId: "approve",
      value: "request-123",
    });
  });

  it("decodes empty callback payload with telegram_callback fallback", () => {
    expect(decodeTelegramCallbackData(undefined)).toEqual({
      actionId: "telegram_callback",
      value: undefined,
    });
  });

  it("falls back to raw payload for malformed encoded data", () => {
    expect(decodeTelegramCallbackData("chat:{not-json")).toEqual({
      actionId: "chat:{not-json",
      value: "chat:{not-json",
    });
  });

  it("falls back to raw payload for non-encoded callbacks", () => {
    expect(decodeTelegramCallbackData("legacy_action")).toEqual({
      actionId: "legacy_action",
      value: "legacy_action",
    });
  });

  it("throws when callback payload exceeds Telegram limit", () => {
    expect(() => encodeTelegramCallbackData("x".repeat(200))).toThrow(ValidationError);
  });
});

describe("emptyTelegramInlineKeyboard", () => {
  it("returns an empty keyboard", () => {
    expect(emptyTelegramInlineKeyboard()).toEqual({ inline_keyboard: [] });
  });
});

describe("cardToTelegramText", () => {
  it("renders the title in bold and the body escaped, without the buttons", () => {
    const text = cardToTelegramText({
      type: "card",
      title: "Order #42",
      children: [
        { type: "text", content: "Total: 9.99!" },
        { type: "actions", children: [{ type: "button", id: "pay", label: "Pay" }] },
      ],
    });
    expect(text).toBe("*Order \\#42*\n\nTotal: 9\\.99\\!");
  });
});
