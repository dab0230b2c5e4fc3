import {
  type Adapter,
  Chat,
  type ChatConfig,
  type Clock,
  ConfigError,
  type Logger,
  type LogLevel,
  type Message,
  type MessageContext,
  type Observer,
  type StateAdapter,
  systemClock,
  type Thread,
} from "@baton/core";
import { parseAgentCommand } from "./agent-command.js";
import { runAgentCommand } from "./agent-desk.js";
import { assistantAnswer, desk, replies } from "./replies.js";
import { Takeover } from "./takeover.js";

/** Options of {@link createSupportBot}. */
export interface SupportBotOptions {
  /** The shared State: memory for one process, Redis or Postgres for several. */
  readonly state: StateAdapter;
  /** The platforms, each under its own name (e.g. `{ web }`). */
  readonly adapters: Record<string, Adapter>;
  /**
   * User ids allowed to run `/agent …` commands. Compared with `message.author.userId` on every
   * adapter, so pick ids that no customer can have on any of them.
   */
  readonly agentIds: readonly string[];
  /** The bot's handle: `@support` is a mention. Default `"support"`. */
  readonly userName?: string;
  /** How long an agent's hold lasts unless extended. Default {@link DEFAULT_HOLD_TTL_MS}. */
  readonly holdTtlMs?: number;
  /** The time source of every wait and expiry. Default: the system clock. */
  readonly clock?: Clock;
  /** A logger or a console log level. Default `"info"`. */
  readonly logger?: Logger | LogLevel;
  /** Receives Baton's telemetry, e.g. every message's disposition. Default: none. */
  readonly observer?: Observer;
}

/** A running support bot. */
export interface SupportBot {
  /** The Baton runtime: hand it webhooks, initialize it, shut it down. */
  readonly chat: Chat;
  /** Take over and hand back from code, e.g. an agent dashboard in another process. */
  readonly takeover: Takeover;
  /** True when the user with this id may run agent commands. */
  isAgent(userId: string): boolean;
  /**
   * Posts the welcome into a conversation unless it was posted before, by any instance; true
   * when this call posted it. Handlers call it before their first answer; a host may call it
   * earlier, e.g. when a customer opens the chat.
   */
  greet(threadId: string): Promise<boolean>;
}

/** How long a hold lasts by default: 30 minutes. */
export const DEFAULT_HOLD_TTL_MS = 30 * 60_000;

/** The welcome's claim lease: far longer than one post takes. */
const WELCOME_CLAIM_TTL_MS = 30_000;

/**
 * The reference support bot: a canned assistant that answers mentions, direct messages and
 * follow-ups in the threads it was mentioned in, and lets a human agent take a conversation
 * over and hand it back (see the README's timeline). It runs the `queue` strategy, so what a
 * customer writes while the assistant answers — or while an agent holds the conversation —
 * waits and is answered in one run.
 */
export function createSupportBot(options: SupportBotOptions): SupportBot {
  const holdTtlMs = options.holdTtlMs ?? DEFAULT_HOLD_TTL_MS;
  assertOptions(options, holdTtlMs);
  const config: ChatConfig = {
    userName: options.userName ?? "support",
    adapters: options.adapters,
    state: options.state,
    // Messages queued behind a hold live as long as the hold (Baton's hold records), so the
    // default queueEntryTtlMs (90 s) only bounds waits behind the assistant's own answers.
    concurrency: { strategy: "queue" },
    logger: options.logger ?? "info",
  };
  if (options.clock) config.clock = options.clock;
  if (options.observer) config.observer = options.observer;
  const chat = new Chat(config);
  const logger = chat.getLogger("support-bot");
  const takeover = new Takeover({
    chat,
    holdTtlMs,
    clock: options.clock ?? systemClock,
    logger,
  });
  const agents = new Set(options.agentIds);
  const isAgent = (userId: string) => agents.has(userId);

  const greet = async (thread: Thread): Promise<boolean> => {
    const result = await thread.once("welcome", () => thread.post(replies.welcome), {
      ttlMs: WELCOME_CLAIM_TTL_MS,
    });
    return result.ran;
  };

  // Exactly one instance hears of each lapse, on the sweep that then drains what waited.
  chat.onHoldLapsed((event) => takeover.noticeLapsed(event));

  const handle = async (thread: Thread, message: Message, context: MessageContext) => {
    const command = parseAgentCommand(message.text);
    if (command && !isAgent(message.author.userId)) {
      await thread.post(replies.notAnAgent);
      return;
    }
    if (command) {
      await runAgentCommand({ chat, takeover, logger }, thread, message, command);
      return;
    }
    // Answer what came after the agent's last word in this run: what came before, the agent saw.
    const run = [...context.skipped, message];
    const open = run.slice(run.findLastIndex((each) => isAgent(each.author.userId)) + 1);
    const latest = open.at(-1);
    if (!latest) {
      // Only an agent spoke. In their own conversation with the bot, remind them of the commands.
      if (thread.isDM) await thread.post(desk.usage);
      return;
    }
    await greet(thread);
    await thread.post(assistantAnswer(latest.text, open.length));
  };

  chat.onDirectMessage(handle);
  chat.onNewMention(async (thread, message, context) => {
    await thread.subscribe();
    await handle(thread, message, context);
  });
  chat.onSubscribedMessage(handle);

  return {
    chat,
    takeover,
    isAgent,
    greet: (threadId) => greet(chat.thread(threadId)),
  };
}

function assertOptions(options: SupportBotOptions, holdTtlMs: number): void {
  const problems: string[] = [];
  const ids: unknown = options?.agentIds;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string" || id.length === 0)) {
    problems.push("agentIds must be an array of non-empty user ids");
  }
  if (!Number.isFinite(holdTtlMs) || holdTtlMs <= 0) {
    problems.push(`holdTtlMs must be a positive number of milliseconds, got ${holdTtlMs}`);
  }
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `support bot: ${p}`));
}
