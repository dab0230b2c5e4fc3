import { divergencesOf } from "./divergence.js";
import { NO_CALLBACK_URL, NO_MODALS, NO_STREAMING, NO_SUBJECT } from "./reasons.js";

/** `packages/chat/src/chat.test.ts`: Chat routing, dedupe, events, concurrency. */
export const CHAT_DIVERGENCES = divergencesOf("packages/chat/src/chat.test.ts", [
  {
    kind: "divergent",
    titles: [
      "should force-release lock when onLockConflict is 'force'",
      "should support callback returning 'force'",
    ],
    reason:
      'rejected: "force" would run two handlers on one thread; Baton refuses it at construction with a ConfigError, and treats a callback\'s "force" as "drop" with a warning',
    link: "docs/adr/0005-no-force-lock-release.md",
  },
  {
    kind: "deferred",
    titles: [
      "should preserve null fallback streaming placeholder config",
      "should allow streaming from a reaction without message context",
      "should allow streaming from an action without message context",
      "should allow streaming to a thread handle",
      "passes only explicit placeholder config to adapter streaming",
    ],
    reason: NO_STREAMING,
  },
  {
    kind: "deferred",
    titles: [
      "should wire adapter on message for subject access",
      "should wire adapter on queued message so fetchSubject works after JSON roundtrip",
    ],
    reason: NO_SUBJECT,
  },
  {
    kind: "divergent",
    titles: [
      "should isolate queued messages across channel-scoped threads",
      "should isolate debounced messages across channel-scoped threads",
    ],
    reason:
      "different on purpose: under channel scope upstream hands the batch to one thread's handler and discards the other threads' messages; Baton gives every thread in the batch a run of its own",
    link: "docs/adr/0006-channel-scope-drains-every-thread.md",
  },
  {
    kind: "divergent",
    titles: ["should support async callback"],
    reason:
      'different on purpose: upstream\'s async onLockConflict returns "force" and runs a second handler on a held lock; Baton awaits an async callback but treats "force" as "drop" with a warning',
    link: "docs/adr/0005-no-force-lock-release.md",
  },
  {
    kind: "divergent",
    titles: ["should skip rehydration for attachments that already have fetchData"],
    reason:
      "unreachable in Baton: queue entries are always JSON in the State, so no queued attachment keeps a fetchData; Baton rehydrates every queued attachment through the adapter",
    link: "docs/adr/0010-queue-entries-live-in-state.md",
  },
  {
    kind: "deferred",
    titles: ["should match EmojiValue by object identity"],
    reason:
      "not built: Baton has no EmojiValue objects; a reaction's emoji and a reaction filter are strings",
  },
  {
    kind: "deferred",
    titles: [
      "should provide openModal method that calls adapter.openModal",
      "should convert JSX Modal to ModalElement in openModal",
      "should return undefined from openModal when triggerId is missing",
      "should return undefined from openModal when adapter does not support modals",
      "should open modal when action has empty threadId (no thread context)",
      "should store channel context when opening modal and provide relatedChannel in modal submit",
      "should allow posting to relatedChannel from modal submit handler",
      "should provide relatedChannel from action-triggered modal (extracted from thread)",
    ],
    reason: NO_MODALS,
  },
  {
    kind: "deferred",
    titles: [
      "should decode callbackUrl token and POST to it",
      "should decode callbackUrl token with no original value",
      "should preserve callback-like values when no callbackUrl is stored",
      "should fire onAction handlers alongside callbackUrl POST",
      "should POST to modal callbackUrl on submit",
      "should not POST to modal callbackUrl when submit returns errors",
      "should not wait for modal callbackUrl before returning response",
      "should fire-and-forget modal callbackUrl when no waitUntil is provided",
      "should not POST when modal context has no callbackUrl",
      "should log error when modal callbackUrl POST returns non-2xx",
      "should log error when action callbackUrl POST returns non-2xx",
    ],
    reason: NO_CALLBACK_URL,
  },
  {
    kind: "deferred",
    describe: ["Chat", "openDM"],
    reason:
      "not built: Chat has no openDM (the adapter contract has an optional openDM the core does not call yet), nor upstream's inference of the adapter from a user id",
  },
  {
    kind: "deferred",
    describe: ["Chat", "getUser"],
    reason:
      "not built: Chat has no getUser, nor upstream's inference of the adapter from a user id",
  },
  {
    kind: "deferred",
    describe: ["Chat", "Options Load"],
    reason: "not built: Chat has no onOptionsLoad (dynamic select options)",
  },
  {
    kind: "deferred",
    describe: ["Chat", "persistThreadHistory"],
    reason:
      "not built: Baton keeps no thread history; upstream's messageHistory and threadHistory options are ignored with a warning",
  },
]);
