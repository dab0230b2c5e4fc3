/**
 * How many handlers each message hook has, and the patterns of `onNewMessage` in registration
 * order. Counts, not the handlers themselves, so route selection stays independent of handler
 * types and trivially testable.
 */
export interface RouteHandlers {
  /** Handlers registered with `onDirectMessage`. */
  directMessage: number;
  /** Handlers registered with `onSubscribedMessage`. */
  subscribed: number;
  /** Handlers registered with `onNewMention`. */
  mention: number;
  /** The regexes registered with `onNewMessage`, in registration order. Never mutated. */
  patterns: readonly RegExp[];
}

/** Everything route selection looks at, gathered by the dispatcher under the thread's lock. */
export interface RouteInput {
  /** The thread is a direct message (`adapter.isDM(threadId)`). */
  isDM: boolean;
  /** The bot is subscribed to the thread. */
  isSubscribed: boolean;
  /** The latest message (the one the handler receives) mentions the bot. */
  isMention: boolean;
  /** Some message folded into this run's `context.skipped` mentions the bot. */
  skippedMention: boolean;
  /** The latest message's text, which the patterns are tested against. */
  text: string;
  handlers: RouteHandlers;
}

/**
 * Why a run goes to the mention handlers:
 * - `mention`: the latest message mentions the bot;
 * - `direct-message`: a DM, and no `onDirectMessage` handler is registered;
 * - `skipped-mention`: only a skipped message of the batch mentions the bot.
 */
export type MentionTrigger = "mention" | "direct-message" | "skipped-mention";

/**
 * The hook whose handlers run for a message, in the order they were registered.
 * - `direct-message`, `subscribed`, `mention`: run every handler of that hook. The list may be
 *   empty (a subscribed thread without `onSubscribedMessage` handlers, a mention without
 *   `onNewMention` handlers): then nothing runs, and no later hook is tried.
 * - `patterns`: run the `onNewMessage` handlers at `patternIndexes` (ascending indexes into
 *   `RouteHandlers.patterns`, never empty).
 * - `none`: nothing applies.
 */
export type Route =
  | { kind: "direct-message" }
  | { kind: "subscribed" }
  | { kind: "mention"; trigger: MentionTrigger }
  | { kind: "patterns"; patternIndexes: number[] }
  | { kind: "none" };

/**
 * Chooses the hook for one message. Precedence (DESIGN §5 invariant 6, upstream `chat` 4.38.1
 * `Chat.dispatchToHandlers` in dist/index.js):
 * 1. A DM goes to `onDirectMessage` when at least one such handler is registered — also in a
 *    subscribed thread and whatever the text says.
 * 2. A subscribed thread goes to `onSubscribedMessage`, a mention included.
 * 3. The mention handlers get the message when the latest message mentions the bot, or it is a DM
 *    (no DM handler, by rule 1), or — only when at least one mention handler is registered — a
 *    skipped message of the batch mentions the bot.
 * 4. Otherwise every pattern that matches `text` selects its handler, in registration order.
 * 5. Otherwise `none`.
 *
 * Pure and total: no I/O, never throws, and it leaves `input` (including each pattern's
 * `lastIndex`) as it found it.
 */
export function selectRoute(input: RouteInput): Route {
  const { handlers } = input;
  if (input.isDM && handlers.directMessage > 0) return { kind: "direct-message" };

  // Fact (chat 4.38.1, dist/index.js, `Chat.dispatchToHandlers`): in a subscribed thread upstream
  // runs the subscribed handler list, empty or not, and returns. A subscribed thread without an
  // `onSubscribedMessage` handler therefore reaches neither the mention nor the pattern handlers.
  if (input.isSubscribed) return { kind: "subscribed" };

  // The latest message's own mention (or a DM) selects the mention hook even when it has no
  // handlers, as upstream does; only the skipped-message rule asks for a registered handler, so a
  // batch whose mention nobody handles still reaches the patterns (DESIGN §5.6).
  if (input.isMention) return { kind: "mention", trigger: "mention" };
  if (input.isDM) return { kind: "mention", trigger: "direct-message" };
  if (input.skippedMention && handlers.mention > 0) {
    return { kind: "mention", trigger: "skipped-mention" };
  }

  const patternIndexes = matchingPatternIndexes(handlers.patterns, input.text);
  if (patternIndexes.length > 0) return { kind: "patterns", patternIndexes };
  return { kind: "none" };
}

/**
 * The value of `message.isMention` the handlers should see. Upstream marks a DM as a mention when
 * no `onDirectMessage` handler is registered, also when it then goes to `onSubscribedMessage`, so
 * a handler checking `message.isMention` treats a DM as addressed to the bot.
 */
export function isMentionForHandlers(
  input: Pick<RouteInput, "isDM" | "isMention" | "handlers">,
): boolean {
  return input.isMention || (input.isDM && input.handlers.directMessage === 0);
}

/**
 * Indexes of the patterns that match `text`, ascending. Every pattern is tested from the start of
 * the text, also a global (`g`) or sticky (`y`) one, whose `RegExp.test` would otherwise resume at
 * `lastIndex` and alternate between match and no match on the same text. The caller's regexes are
 * left untouched.
 */
export function matchingPatternIndexes(patterns: readonly RegExp[], text: string): number[] {
  const indexes: number[] = [];
  patterns.forEach((pattern, index) => {
    if (testFromStart(pattern, text)) indexes.push(index);
  });
  return indexes;
}

function testFromStart(pattern: RegExp, text: string): boolean {
  if (!pattern.global && !pattern.sticky) return pattern.test(text);
  // A copy has the same source and flags with `lastIndex` 0, so a sticky pattern stays anchored at
  // the start and the user's regex keeps its own `lastIndex`, even if a handler is using it.
  return new RegExp(pattern).test(text);
}
