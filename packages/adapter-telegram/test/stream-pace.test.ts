import { ValidationError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createTelegramAdapter } from "../src/index.js";
import {
  TELEGRAM_GROUP_STREAM_FLOOR_MS,
  TELEGRAM_PRIVATE_STREAM_FLOOR_MS,
  telegramStreamFloorMs,
} from "../src/stream-pace.js";

describe("the floor of a Telegram thread's streamed edits", () => {
  it("reads the chat type from the chat id: positive is private, negative or @name is not", () => {
    expect(TELEGRAM_PRIVATE_STREAM_FLOOR_MS).toBe(1_100);
    expect(TELEGRAM_GROUP_STREAM_FLOOR_MS).toBe(3_100);
    expect(telegramStreamFloorMs("telegram:7527593", undefined)).toBe(1_100);
    expect(telegramStreamFloorMs("telegram:-4012345", undefined)).toBe(3_100); // group
    expect(telegramStreamFloorMs("telegram:-1001234567890", undefined)).toBe(3_100); // supergroup
    expect(telegramStreamFloorMs("telegram:-1001234567890:42", undefined)).toBe(3_100); // topic
    expect(telegramStreamFloorMs("telegram:@announcements", undefined)).toBe(3_100); // channel
  });

  it("uses a configured streamingEditIntervalMs for every chat type, 0 included", () => {
    for (const threadId of ["telegram:7527593", "telegram:-1001234567890:42"]) {
      expect(telegramStreamFloorMs(threadId, 0)).toBe(0);
      expect(telegramStreamFloorMs(threadId, 5_000)).toBe(5_000);
    }
  });

  it("refuses a thread id that is not Telegram's", () => {
    expect(() => telegramStreamFloorMs("slack:C1:T1", undefined)).toThrow(ValidationError);
    expect(() => telegramStreamFloorMs("telegram:12a", 0)).toThrow(ValidationError);
  });

  it("is what the adapter declares to the core, per thread", () => {
    const adapter = createTelegramAdapter({ botToken: "1:token", mode: "webhook" });
    expect(adapter.streamingUpdateIntervalMs).toBeUndefined();
    expect(adapter.minStreamingUpdateIntervalMs("telegram:7527593")).toBe(1_100);
    expect(adapter.minStreamingUpdateIntervalMs("telegram:-1001234567890")).toBe(3_100);
    const configured = createTelegramAdapter({
      botToken: "1:token",
      mode: "webhook",
      streamingEditIntervalMs: 250,
    });
    expect(configured.streamingUpdateIntervalMs).toBe(250);
    expect(configured.minStreamingUpdateIntervalMs("telegram:-1001234567890")).toBe(250);
  });
});
