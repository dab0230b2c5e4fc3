import { describe, expect, it } from "vitest";
import {
  type BotIdentity,
  isMentionForHandlers,
  matchingPatternIndexes,
  type Route,
  type RouteHandlers,
  type RouteInput,
  resolveIsMention,
  selectRoute,
} from "../../src/routing/index.js";

const NO_HANDLERS: RouteHandlers = { directMessage: 0, subscribed: 0, mention: 0, patterns: [] };
const ALL_HANDLERS: RouteHandlers = {
  directMessage: 1,
  subscribed: 1,
  mention: 1,
  patterns: [/.*/],
};

/** A plain channel message nobody mentioned, with no handlers unless the test says so. */
function input(overrides: Partial<RouteInput> = {}): RouteInput {
  return {
    isDM: false,
    isSubscribed: false,
    isMention: false,
    skippedMention: false,
    text: "",
    handlers: NO_HANDLERS,
    ...overrides,
  };
}

function handlers(overrides: Partial<RouteHandlers>): RouteHandlers {
  return { ...NO_HANDLERS, ...overrides };
}

describe("selectRoute precedence", () => {
  it("sends a DM to the direct-message handlers when any are registered", () => {
    expect(selectRoute(input({ isDM: true, handlers: ALL_HANDLERS }))).toEqual({
      kind: "direct-message",
    });
  });

  it("should route subscribed DM threads to onDirectMessage, not onSubscribedMessage", () => {
    const route = selectRoute(
      input({
        isDM: true,
        isSubscribed: true,
        handlers: handlers({ directMessage: 1, subscribed: 1 }),
      }),
    );
    expect(route).toEqual({ kind: "direct-message" });
  });

  it("sends a DM that mentions the bot and matches a pattern to the direct-message handlers", () => {
    const route = selectRoute(
      input({
        isDM: true,
        isMention: true,
        skippedMention: true,
        text: "help",
        handlers: ALL_HANDLERS,
      }),
    );
    expect(route).toEqual({ kind: "direct-message" });
  });

  it("should fall through to onNewMention when no DM handlers registered", () => {
    const route = selectRoute(input({ isDM: true, handlers: handlers({ mention: 1 }) }));
    expect(route).toEqual({ kind: "mention", trigger: "direct-message" });
  });

  it("sends a DM without DM handlers to the subscribed handlers when the thread is subscribed", () => {
    const route = selectRoute(
      input({ isDM: true, isSubscribed: true, handlers: handlers({ subscribed: 1, mention: 1 }) }),
    );
    expect(route).toEqual({ kind: "subscribed" });
  });

  it("keeps a DM without DM handlers on the mention hook even with no mention handlers", () => {
    const route = selectRoute(
      input({ isDM: true, text: "help", handlers: handlers({ patterns: [/help/] }) }),
    );
    expect(route).toEqual({ kind: "mention", trigger: "direct-message" });
  });

  it("should not route non-DM mentions to directMessage handler", () => {
    const route = selectRoute(
      input({ isMention: true, handlers: handlers({ directMessage: 1, mention: 1 }) }),
    );
    expect(route).toEqual({ kind: "mention", trigger: "mention" });
  });

  it("should call onSubscribedMessage handler for subscribed threads", () => {
    const route = selectRoute(
      input({
        isSubscribed: true,
        text: "Follow up",
        handlers: handlers({ subscribed: 1, mention: 1 }),
      }),
    );
    expect(route).toEqual({ kind: "subscribed" });
  });

  it("should NOT call onNewMention for mentions in subscribed threads", () => {
    const route = selectRoute(
      input({
        isSubscribed: true,
        isMention: true,
        handlers: handlers({ subscribed: 1, mention: 1 }),
      }),
    );
    expect(route).toEqual({ kind: "subscribed" });
  });

  it("keeps a subscribed thread on the subscribed hook when no subscribed handler is registered", () => {
    const route = selectRoute(
      input({
        isSubscribed: true,
        isMention: true,
        skippedMention: true,
        text: "help",
        handlers: handlers({ mention: 1, patterns: [/help/] }),
      }),
    );
    expect(route).toEqual({ kind: "subscribed" });
  });

  it("should call onNewMention only for mentions in unsubscribed threads", () => {
    const route = selectRoute(
      input({ isMention: true, handlers: handlers({ subscribed: 1, mention: 1 }) }),
    );
    expect(route).toEqual({ kind: "mention", trigger: "mention" });
  });

  it("keeps a mention on the mention hook, skipping the patterns, when no mention handler exists", () => {
    const route = selectRoute(
      input({ isMention: true, text: "help", handlers: handlers({ patterns: [/help/] }) }),
    );
    expect(route).toEqual({ kind: "mention", trigger: "mention" });
  });

  it("sends the batch to the mention handlers when only a skipped message mentions the bot", () => {
    const route = selectRoute(
      input({
        skippedMention: true,
        text: "please",
        handlers: handlers({ mention: 1, patterns: [/please/] }),
      }),
    );
    expect(route).toEqual({ kind: "mention", trigger: "skipped-mention" });
  });

  it("continues to the patterns when a skipped message mentions the bot but no mention handler exists", () => {
    const route = selectRoute(
      input({ skippedMention: true, text: "please", handlers: handlers({ patterns: [/please/] }) }),
    );
    expect(route).toEqual({ kind: "patterns", patternIndexes: [0] });
  });

  it("ends at none when a skipped mention has no handler and no pattern matches", () => {
    const route = selectRoute(
      input({ skippedMention: true, text: "please", handlers: handlers({ patterns: [/help/] }) }),
    );
    expect(route).toEqual({ kind: "none" });
  });

  it("should match message patterns", () => {
    const route = selectRoute(
      input({ text: "Can someone help me?", handlers: handlers({ patterns: [/help/i] }) }),
    );
    expect(route).toEqual({ kind: "patterns", patternIndexes: [0] });
  });

  it("selects every matching pattern in registration order and skips the others", () => {
    const patterns = [/deploy/, /status/, /^deploy now$/, /rollback/, /now/];
    const route = selectRoute(input({ text: "deploy now", handlers: handlers({ patterns }) }));
    expect(route).toEqual({ kind: "patterns", patternIndexes: [0, 2, 4] });
  });

  it("ends at none when no pattern is registered", () => {
    expect(selectRoute(input({ text: "hello", handlers: handlers({ mention: 1 }) }))).toEqual({
      kind: "none",
    });
  });
});

describe("selectRoute over every combination", () => {
  const flags = [false, true];
  const counts = [0, 2];
  const patternSets: RegExp[][] = [[], [/x/], [/y/]];
  // Every mix of thread facts and registered hooks; the text "x" matches /x/ only.
  const cases: RouteInput[] = flags.flatMap((isDM) =>
    flags.flatMap((isSubscribed) =>
      flags.flatMap((isMention) =>
        flags.flatMap((skippedMention) =>
          counts.flatMap((directMessage) =>
            counts.flatMap((subscribed) =>
              counts.flatMap((mention) =>
                patternSets.map((patterns) =>
                  input({
                    isDM,
                    isSubscribed,
                    isMention,
                    skippedMention,
                    text: "x",
                    handlers: { directMessage, subscribed, mention, patterns },
                  }),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );

  it("covers all 384 combinations", () => {
    expect(cases).toHaveLength(2 ** 4 * 2 ** 3 * 3);
  });

  it("gives direct-message handlers every DM, and nothing else, when they exist", () => {
    for (const c of cases) {
      const isDirect = selectRoute(c).kind === "direct-message";
      expect(isDirect).toBe(c.isDM && c.handlers.directMessage > 0);
    }
  });

  it("routes a subscribed thread to the subscribed hook unless DM handlers claim it", () => {
    for (const c of cases) {
      if (c.isDM && c.handlers.directMessage > 0) continue;
      expect(selectRoute(c).kind === "subscribed").toBe(c.isSubscribed);
    }
  });

  it("reaches the patterns only when no earlier rule applies", () => {
    for (const c of cases) {
      const kind = selectRoute(c).kind;
      if (kind !== "patterns" && kind !== "none") continue;
      expect(c.isDM).toBe(false);
      expect(c.isSubscribed).toBe(false);
      expect(c.isMention).toBe(false);
      expect(c.skippedMention && c.handlers.mention > 0).toBe(false);
    }
  });

  it("sends to the mention hook exactly when no earlier hook claims the message and a mention rule holds", () => {
    for (const c of cases) {
      const claimed = (c.isDM && c.handlers.directMessage > 0) || c.isSubscribed;
      const mentionRule = c.isMention || c.isDM || (c.skippedMention && c.handlers.mention > 0);
      expect(selectRoute(c).kind === "mention").toBe(!claimed && mentionRule);
    }
  });

  it("picks patterns exactly when a pattern matches and none otherwise, at the last step", () => {
    for (const c of cases) {
      const route: Route = selectRoute(c);
      if (route.kind === "patterns") expect(route.patternIndexes).toEqual([0]);
      if (route.kind === "none") expect(c.handlers.patterns.some((p) => p.test("x"))).toBe(false);
    }
  });
});

describe("selectRoute pattern matching", () => {
  it("matches a global regex on two messages in a row", () => {
    const patterns = [/help/g];
    const first = selectRoute(input({ text: "help me", handlers: handlers({ patterns }) }));
    const second = selectRoute(input({ text: "help me", handlers: handlers({ patterns }) }));
    expect(first).toEqual({ kind: "patterns", patternIndexes: [0] });
    expect(second).toEqual({ kind: "patterns", patternIndexes: [0] });
  });

  it("leaves a global regex's lastIndex as the caller set it", () => {
    const pattern = /help/g;
    pattern.lastIndex = 3;
    const route = selectRoute(input({ text: "help", handlers: handlers({ patterns: [pattern] }) }));
    expect(route).toEqual({ kind: "patterns", patternIndexes: [0] });
    expect(pattern.lastIndex).toBe(3);
  });

  it("tests a sticky regex from the start of the text every time", () => {
    const pattern = /deploy/y;
    const text = "deploy deploy";
    expect(matchingPatternIndexes([pattern], text)).toEqual([0]);
    expect(matchingPatternIndexes([pattern], text)).toEqual([0]);
    expect(pattern.lastIndex).toBe(0);
    expect(matchingPatternIndexes([pattern], "please deploy")).toEqual([]);
  });

  it("matches a global, case-insensitive regex on alternating texts consistently", () => {
    const patterns = [/status/gi];
    const results = ["STATUS?", "status", "no", "Status please"].map((text) =>
      selectRoute(input({ text, handlers: handlers({ patterns }) })),
    );
    expect(results.map((route) => route.kind)).toEqual([
      "patterns",
      "patterns",
      "none",
      "patterns",
    ]);
  });

  it("does not change the input it is given", () => {
    const patterns = [/a/g, /b/];
    const given = input({ text: "ab", handlers: handlers({ patterns }) });
    const snapshot = JSON.stringify({ ...given, patterns: patterns.map(String) });
    selectRoute(given);
    expect(JSON.stringify({ ...given, patterns: patterns.map(String) })).toBe(snapshot);
    expect(given.handlers.patterns).toBe(patterns);
    expect(patterns.map((p) => p.lastIndex)).toEqual([0, 0]);
  });
});

describe("isMentionForHandlers", () => {
  it("marks a DM as a mention when no direct-message handler is registered", () => {
    expect(isMentionForHandlers({ isDM: true, isMention: false, handlers: NO_HANDLERS })).toBe(
      true,
    );
  });

  it("keeps the message's own flag when direct-message handlers take the DM", () => {
    const dmHandlers = handlers({ directMessage: 1 });
    expect(isMentionForHandlers({ isDM: true, isMention: false, handlers: dmHandlers })).toBe(
      false,
    );
    expect(isMentionForHandlers({ isDM: true, isMention: true, handlers: dmHandlers })).toBe(true);
  });

  it("keeps the message's own flag outside DMs", () => {
    expect(isMentionForHandlers({ isDM: false, isMention: false, handlers: NO_HANDLERS })).toBe(
      false,
    );
    expect(isMentionForHandlers({ isDM: false, isMention: true, handlers: NO_HANDLERS })).toBe(
      true,
    );
  });
});

describe("mention detection feeding route selection", () => {
  const bot: BotIdentity = { userName: "slack-bot", botUserId: "U_BOT_123" };
  const mentionAndHello = handlers({ mention: 1, patterns: [/hello/i] });

  function routeText(text: string): Route {
    const isMention = resolveIsMention({ text, isMention: undefined }, bot);
    return selectRoute(input({ isMention, text, handlers: mentionAndHello }));
  }

  it("should call onNewMention handler when bot is mentioned", () => {
    expect(routeText("Hey @slack-bot help me").kind).toBe("mention");
  });

  it("should trigger onNewMention for message events containing a bot mention", () => {
    expect(routeText("Hey <@U_BOT_123> help").kind).toBe("mention");
  });

  it("should not trigger onNewMention when message event has no bot mention", () => {
    expect(routeText("hello everyone")).toEqual({ kind: "patterns", patternIndexes: [0] });
  });

  it("should not trigger onNewMention when a bot with a hyphen-suffixed name is mentioned", () => {
    expect(routeText("Hey @slack-bot-dev hello")).toEqual({
      kind: "patterns",
      patternIndexes: [0],
    });
  });

  it("should not trigger onNewMention when a hyphen-suffixed user ID is mentioned", () => {
    expect(routeText("Hey @U_BOT_123-old hello")).toEqual({
      kind: "patterns",
      patternIndexes: [0],
    });
  });

  it("should call onNewMention for newline-separated GitHub bot mentions", () => {
    expect(routeText("@slack-bot\nhello there!").kind).toBe("mention");
  });

  it("should not call onNewMention for concatenated GitHub bot mention text", () => {
    expect(routeText("@slack-bothello there")).toEqual({ kind: "patterns", patternIndexes: [0] });
  });
});
