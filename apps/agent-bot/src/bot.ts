import {
  Actions,
  type Adapter,
  Button,
  Card,
  CardText,
  Chat,
  type ChatConfig,
  type Clock,
  ConfigError,
  type Logger,
  type LogLevel,
  type Message,
  type MessageContext,
  type Observer,
  type SentMessage,
  type StateAdapter,
  type Thread,
} from "@baton/core";
import { createChatTools, toAiMessages } from "@baton/core/ai";
import { type LanguageModel, stepCountIs, streamText } from "ai";
import { StopSwitch } from "./stop-switch.js";
import { untilStopped } from "./until-stopped.js";

/** How a new message in a thread is handled while the agent is still answering there. */
export type AgentStrategy = "queue" | "debounce";

/** Options of {@link createAgentBot}. */
export interface AgentBotOptions {
  readonly state: StateAdapter;
  /** The platforms, each under its own name (e.g. `{ web }`). */
  readonly adapters: Record<string, Adapter>;
  /** The model: a provider's (see `modelFromEnv`) or the local one. */
  readonly model: LanguageModel;
  /** Default `"queue"`; the README explains the choice. */
  readonly strategy?: AgentStrategy;
  /** Under `debounce`: the quiet period before answering. Default 1 500 ms. */
  readonly debounceMs?: number;
  /** The bot's handle: `@agent` is a mention. Default `"agent"`. */
  readonly userName?: string;
  readonly clock?: Clock;
  readonly logger?: Logger | LogLevel;
  readonly observer?: Observer;
}

/** A running agent bot. */
export interface AgentBot {
  readonly chat: Chat;
  /**
   * Stops the answer streaming in `threadId`, from any instance on the same State (what the
   * stop button does). Resolves false when nothing is streaming there.
   */
  stop(threadId: string): Promise<boolean>;
}

/** The action id of the stop button. */
export const STOP_ACTION = "agent:stop";

/** Texts the bot posts besides the model's answers. */
export const notices = {
  answering: "Answering…",
  /** What platforms without buttons show instead of the stop card. */
  answeringFallback: "Answering… (stop it with POST /api/agent/stop)",
  answered: "Answered.",
  stopped: "Stopped.",
  failed: "The model failed; try again.",
} as const;

/** The most model steps per answer: a tool round and the answer, with room to spare. */
const MAX_STEPS = 4;

/**
 * The reference agent: mentions, direct messages and follow-ups in threads it was mentioned in
 * are answered by `model` through the AI SDK, with read-only tools over the conversation
 * (`createChatTools`, preset `reader`). The answer streams into the platform (native streaming
 * or post + edit); the handler holds the thread's lock the whole time, and the lease keeper
 * renews it, so a long answer keeps it. A stop card next to the answer aborts the stream.
 */
export function createAgentBot(options: AgentBotOptions): AgentBot {
  const strategy = options.strategy ?? "queue";
  assertOptions(options, strategy);
  const config: ChatConfig = {
    userName: options.userName ?? "agent",
    adapters: options.adapters,
    state: options.state,
    concurrency:
      strategy === "debounce"
        ? { strategy, debounceMs: options.debounceMs ?? 1_500 }
        : { strategy: "queue" },
    logger: options.logger ?? "info",
  };
  if (options.clock) config.clock = options.clock;
  if (options.observer) config.observer = options.observer;
  const chat = new Chat(config);
  const logger = chat.getLogger("agent-bot");
  const stops = new StopSwitch(chat.getState(), chat.getLogger("agent-bot:stop"), config.clock);
  // Read-only tools: the answer goes out through thread.post, never through a tool call.
  const tools = createChatTools({ chat, preset: "reader" });

  const answer = async (thread: Thread, message: Message, context: MessageContext) => {
    const run = await stops.begin(thread.id, context.signal);
    let control: SentMessage | undefined;
    try {
      control = await thread.post({
        card: Card({
          children: [
            CardText(notices.answering),
            Actions([
              Button({ id: STOP_ACTION, label: "Stop", style: "danger", value: thread.id }),
            ]),
          ],
        }),
        fallbackText: notices.answeringFallback,
      });
      const result = streamText({
        model: options.model,
        system: `You are a helpful agent in a chat. Use the tools to read the conversation before answering. thread: ${thread.id}`,
        messages: await toAiMessages([...context.skipped, message], { includeNames: true }),
        tools,
        stopWhen: stepCountIs(MAX_STEPS),
        abortSignal: run.signal,
      });
      // The handler's own signal (lease lost, shutdown) stops the post as core does; a user's
      // stop ends the stream quietly, keeping what was said so far.
      await thread.post(untilStopped(result.fullStream, run.signal));
      await settle(thread, control, run.signal.aborted ? "stopped" : "answered");
    } catch (error) {
      if (run.signal.aborted) {
        await settle(thread, control, "stopped").catch((failure: unknown) => {
          logger.warn("could not mark the answer stopped", { threadId: thread.id, failure });
        });
        return;
      }
      logger.error("answering failed", { threadId: thread.id, error });
      await thread.post(notices.failed);
    } finally {
      await run.end();
    }
  };

  chat.onDirectMessage(answer);
  chat.onNewMention(async (thread, message, context) => {
    await thread.subscribe();
    await answer(thread, message, context);
  });
  chat.onSubscribedMessage(answer);
  chat.onAction(STOP_ACTION, async (event) => {
    await stops.stop(event.value ?? event.threadId);
  });

  return { chat, stop: (threadId) => stops.stop(threadId) };
}

/**
 * Marks the control card done. Where messages can be edited the card becomes the notice; where
 * they cannot (SMS), a stop is confirmed by a new message and a finished answer needs none.
 */
async function settle(
  thread: Thread,
  control: SentMessage | undefined,
  how: "answered" | "stopped",
): Promise<void> {
  if (control && thread.adapter.capabilities?.editMessage === true) {
    await control.edit(notices[how]);
  } else if (how === "stopped") {
    await thread.post(notices.stopped);
  }
}

function assertOptions(options: AgentBotOptions, strategy: string): void {
  const problems: string[] = [];
  if (!options?.model) problems.push("model is required (modelFromEnv or createLocalModel)");
  if (strategy !== "queue" && strategy !== "debounce") {
    problems.push(`strategy must be "queue" or "debounce", got ${JSON.stringify(strategy)}`);
  }
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `agent bot: ${p}`));
}
