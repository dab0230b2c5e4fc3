import { createTestAuthor } from "@baton/testing";
import type { ActionEvent, Logger, SlashCommandEvent } from "../../src/index.js";

/** A thread and a channel of the harness's `mock` adapter. */
export const THREAD = "mock:C123:1234.5678";
export const CHANNEL = "mock:C456";

/** The empty modal upstream's tests open, with the given callback id. */
export function emptyModal(callbackId: string, title = "Test Modal") {
  return { type: "modal" as const, callbackId, title, children: [] };
}

/** An action on {@link THREAD} by user U123, as an adapter hands it to the Chat. */
export function actionEvent(overrides: Partial<ActionEvent> = {}): ActionEvent {
  return {
    actionId: "open_form",
    user: createTestAuthor({ userId: "U123", userName: "user", fullName: "Test User" }),
    messageId: "msg-1",
    threadId: THREAD,
    raw: {},
    ...overrides,
  };
}

/** A slash command in {@link CHANNEL} by user U123. */
export function slashCommandEvent(overrides: Partial<SlashCommandEvent> = {}): SlashCommandEvent {
  return {
    command: "/feedback",
    text: "",
    user: createTestAuthor({ userId: "U123", userName: "user", fullName: "Test User" }),
    channelId: CHANNEL,
    raw: { channel_id: "C456" },
    ...overrides,
  };
}

/** The submitting user of upstream's modal tests. */
export function submitter() {
  return createTestAuthor({ userId: "U123", userName: "user", fullName: "Test User" });
}

/** One log call: its level, message and the fields object it carried. */
export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields: Record<string, unknown> | undefined;
}

/** A logger that keeps every line, to assert what was logged. */
export function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine["level"]) =>
    (message: string, ...args: unknown[]) => {
      lines.push({ level, message, fields: args[0] as Record<string, unknown> | undefined });
    };
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
  return { logger, lines };
}
