import { defineCapabilities } from "@baton/core";

/**
 * What the Telegram adapter declares: streaming by post + edit, cards as inline keyboards,
 * reactions, edits, deletes, typing, DMs, user lookups, files and native replies. No history
 * (the core keeps it), no modals, no ephemeral or scheduled messages.
 */
export const TELEGRAM_CAPABILITIES = defineCapabilities({
  streaming: "edit",
  cards: true,
  reactions: true,
  editMessage: true,
  deleteMessage: true,
  typing: true,
  openDM: true,
  getUser: true,
  files: true,
  replies: true,
});
