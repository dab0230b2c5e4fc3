import type { Adapter } from "../contracts/adapter.js";
import { ValidationError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import type { ResolvedChatConfig } from "./chat-config-types.js";
import type { ChatCoordination } from "./chat-coordination.js";
import { openDirectThread } from "./open-dm.js";
import type { BindingSource, RuntimeBinding } from "./runtime-binding.js";
import { ThreadImpl } from "./thread.js";
import { persistsThreadHistory, ThreadHistoryCache } from "./thread-history.js";
import type { UserRef } from "./user-adapter.js";
import { UserLookup } from "./user-lookup.js";

/**
 * The parts of a `Chat` that deal with people, history and revival: the binding revived handles
 * resolve to, the cached user lookup, DMs and the persisted thread history. Kept apart from the
 * Chat so the dispatch code stays readable.
 */
export class ChatServices {
  /** Binds revived threads and channels to this Chat's adapters and State. */
  readonly bindings: BindingSource;
  readonly users: UserLookup;
  /** The bounded per-thread history of adapters with `persistThreadHistory`. */
  readonly history: ThreadHistoryCache;

  constructor(
    private readonly config: ResolvedChatConfig,
    private readonly coordination: ChatCoordination,
  ) {
    this.bindings = { bindingFor: (name) => this.bindingFor(name) };
    this.users = new UserLookup({
      adapters: config.adapters,
      state: config.state,
      clock: config.clock,
      logger: config.logger,
      ttlMs: config.userCacheTtlMs,
    });
    this.history = new ThreadHistoryCache(config.state, config.threadHistory);
  }

  /** Opens the DM with `user` and returns it as a thread of this Chat, marked `isDM`. */
  async openDM(user: UserRef): Promise<ThreadImpl> {
    const { adapters, state, logger } = this.config;
    const { adapter, threadId } = await openDirectThread(adapters, user, logger);
    return new ThreadImpl({
      adapter,
      state,
      threadId,
      logger,
      isDM: true,
      coordination: this.coordination,
      history: this.history,
    });
  }

  /**
   * Appends an incoming message to its thread's persisted history when its adapter asks for it.
   * Runs when a delivery's run starts, after the webhook was answered under deferred dispatch. A
   * State failure is logged and does not stop the delivery: the history is a convenience, the
   * message's handling is not. Returns `undefined`, with nothing to wait for, when the adapter
   * keeps no history.
   */
  recordIncoming(adapter: Adapter, message: Message): Promise<void> | undefined {
    if (!persistsThreadHistory(adapter)) return undefined;
    return this.appendIncoming(message);
  }

  private async appendIncoming(message: Message): Promise<void> {
    try {
      await this.history.append(message.threadId, message);
    } catch (error) {
      this.config.logger.warn("could not append the message to the thread history", {
        threadId: message.threadId,
        error,
      });
    }
  }

  private bindingFor(adapterName: string): RuntimeBinding {
    const adapter = this.config.adapters[adapterName];
    if (!adapter) {
      throw new ValidationError(`Adapter "${adapterName}" not found in this Chat`, {
        step: "bind revived handle",
      });
    }
    return {
      adapter,
      state: this.config.state,
      logger: this.config.logger,
      coordination: this.coordination,
      history: this.history,
    };
  }
}
