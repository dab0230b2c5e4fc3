import { divergencesOf } from "./divergence.js";
import { STREAMING_TEST_UNREAD } from "./reasons.js";

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
      "should allow streaming from a reaction without message context",
      "should allow streaming from an action without message context",
      "should allow streaming to a thread handle",
    ],
    reason: STREAMING_TEST_UNREAD,
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
    kind: "divergent",
    titles: ["should return undefined from openModal when adapter does not support modals"],
    reason:
      'different on purpose: on an adapter without modals upstream\'s openModal logs a warning and resolves undefined; Baton rejects with NotSupportedError (adapter, feature "modals") — a form the user never sees is no silent no-op',
    link: "docs/adr/0016-open-modal-refuses-unsupported-adapters.md",
  },
]);
