import type { WebAdapter } from "@baton/adapter-web";
import { Chat, type Logger, type LogLevel, type StateAdapter } from "@baton/core";
import { registerDemoBot } from "./demo-bot.js";
import { needsRestart, type PlaygroundSettings } from "./settings.js";
import type { Timeline } from "./timeline.js";

/** What the runtime is built from; all of it outlives each `Chat`. */
export interface BotRuntimeOptions {
  adapter: WebAdapter;
  /** The State shared by every `Chat`; see {@link retainedState}. */
  state: StateAdapter;
  timeline: Timeline;
  settings: PlaygroundSettings;
  logger?: Logger | LogLevel;
}

/** How often each `Chat` looks for queues whose holder went away (e.g. the previous `Chat`). */
const SWEEP_INTERVAL_MS = 2_000;

/**
 * The playground's bot, re-created when the page changes the strategy or lock scope. A `Chat`'s
 * concurrency settings are fixed at construction (they are validated there), so a change shuts
 * the current `Chat` down — its running handlers are aborted through `context.signal` and its
 * locks released — and starts a new one on the same State, adapter and timeline. Changes are
 * applied one at a time. The handler time is read at each run, so it needs no restart.
 */
export class BotRuntime {
  private current: Chat;
  private active: PlaygroundSettings;
  private applying: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: BotRuntimeOptions) {
    this.active = { ...options.settings };
    this.current = this.build(this.active);
  }

  /** The running `Chat`: route webhooks to `chat.webhooks.web`. */
  get chat(): Chat {
    return this.current;
  }

  /** The settings in force. */
  get settings(): PlaygroundSettings {
    return { ...this.active };
  }

  /** Starts the first `Chat`. */
  start(): Promise<void> {
    return this.current.initialize();
  }

  /** Applies `next`, restarting the bot when the strategy or lock scope changed. */
  apply(next: PlaygroundSettings): Promise<PlaygroundSettings> {
    const run = this.applying.then(async () => {
      const restart = needsRestart(this.active, next);
      this.active = { ...next };
      if (restart) {
        const previous = this.current;
        await previous.shutdown({ timeoutMs: 2_000 });
        this.current = this.build(next);
        await this.current.initialize();
        const { timeline } = this.options;
        timeline.mark(`bot restarted: ${next.strategy}, ${next.lockScope} scope`, Date.now());
      }
      return this.settings;
    });
    this.applying = run.catch(() => {});
    return run;
  }

  /** Shuts the current `Chat` down. */
  async stop(): Promise<void> {
    await this.applying;
    await this.current.shutdown({ timeoutMs: 2_000 });
  }

  private build(settings: PlaygroundSettings): Chat {
    const chat = new Chat({
      userName: this.options.adapter.userName,
      adapters: { web: this.options.adapter },
      state: this.options.state,
      concurrency: { strategy: settings.strategy, sweepIntervalMs: SWEEP_INTERVAL_MS },
      lockScope: settings.lockScope,
      // Dropped and preempted messages are what the playground is for; as warnings they would
      // flood the terminal. The timeline shows them.
      logger: this.options.logger ?? "error",
      observer: this.options.timeline.observer,
    });
    registerDemoBot(chat, { handlerMs: () => this.active.handlerSeconds * 1_000 });
    return chat;
  }
}

/**
 * `state` with a `disconnect()` that does nothing: `chat.shutdown()` disconnects its State,
 * and a memory State forgets everything when disconnected — subscriptions, and messages still
 * queued for the next `Chat`'s sweeper. The playground owns the State's lifetime instead and
 * calls `close()` when it stops.
 */
export function retainedState(state: StateAdapter): StateAdapter & { close(): Promise<void> } {
  return new Proxy(state, {
    get(target, property) {
      if (property === "disconnect") return async () => {};
      if (property === "close") return () => target.disconnect();
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as StateAdapter & { close(): Promise<void> };
}
