import {
  type ActionEvent,
  type Adapter,
  AdmissionRejectedError,
  type Chat,
  type ChatHost,
  type DeliveryResult,
  type InteractionOptions,
  type Logger,
  type Message,
  type MessageDeletedEvent,
  type ModalCloseEvent,
  type ModalResponse,
  type ModalSubmitEvent,
  type OptionsLoadEvent,
  type OptionsLoadResult,
  type ProcessOptions,
  type ReactionEvent,
  type ReceiveResult,
  type SlashCommandEvent,
  type StateAdapter,
} from "@baton/core";

/** One running instance as the router sees it: its `Chat` and its view of the adapter. */
export interface RoutedInstance {
  readonly chat: Chat;
  readonly adapter: Adapter;
  /** Resolves when the instance is killed: a call still in flight then never gets its answer. */
  readonly died: Promise<void>;
}

/**
 * The shared web adapter's host: a load balancer in front of the bot's instances. Each inbound
 * message goes to the instance `pick` chooses, with that instance's view of the adapter (the one
 * registered with its `Chat`). With no instance running, messages are refused with 503 and
 * `Retry-After`, as a webhook is while a bot restarts; a call whose instance is killed before it
 * answers is refused the same way, as a dropped connection makes the platform retry.
 */
export class InstanceRouter implements ChatHost {
  constructor(
    private readonly pick: () => RoutedInstance | undefined,
    private readonly state: StateAdapter,
    private readonly userName: string,
    private readonly logger: Logger,
  ) {}

  processMessage(
    _adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options?: ProcessOptions,
  ): Promise<DeliveryResult> {
    return this.forward("process message", (to) =>
      to.chat.processMessage(to.adapter, threadId, message, options),
    );
  }

  receiveMessage(
    _adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options?: ProcessOptions,
  ): Promise<ReceiveResult> {
    return this.forward("receive message", (to) =>
      to.chat.receiveMessage(to.adapter, threadId, message, options),
    );
  }

  // The web adapter sends only messages; the other events are routed the same way for
  // completeness.
  processAction(_adapter: Adapter, event: ActionEvent, options?: ProcessOptions): Promise<void> {
    return this.forward("process action", (to) =>
      to.chat.processAction(to.adapter, event, options),
    );
  }

  processReaction(_adapter: Adapter, event: ReactionEvent, options?: ProcessOptions) {
    return this.forward("process reaction", (to) =>
      to.chat.processReaction(to.adapter, event, options),
    );
  }

  processSlashCommand(_adapter: Adapter, event: SlashCommandEvent, options?: ProcessOptions) {
    return this.forward("process slash command", (to) =>
      to.chat.processSlashCommand(to.adapter, event, options),
    );
  }

  processMessageUpdated(
    _adapter: Adapter,
    message: Message,
    options?: ProcessOptions,
    previousMessage?: Message,
  ): Promise<void> {
    return this.forward("process edit", (to) =>
      to.chat.processMessageUpdated(to.adapter, message, options, previousMessage),
    );
  }

  processMessageDeleted(_adapter: Adapter, event: MessageDeletedEvent, options?: ProcessOptions) {
    return this.forward("process delete", (to) =>
      to.chat.processMessageDeleted(to.adapter, event, options),
    );
  }

  processModalSubmit(
    _adapter: Adapter,
    event: ModalSubmitEvent,
    contextId?: string,
    options?: InteractionOptions,
  ): Promise<ModalResponse | undefined> {
    return this.forward("process modal submit", (to) =>
      to.chat.processModalSubmit(to.adapter, event, contextId, options),
    );
  }

  processModalClose(
    _adapter: Adapter,
    event: ModalCloseEvent,
    contextId?: string,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.forward("process modal close", (to) =>
      to.chat.processModalClose(to.adapter, event, contextId, options),
    );
  }

  processOptionsLoad(
    _adapter: Adapter,
    event: OptionsLoadEvent,
    options?: InteractionOptions,
  ): Promise<OptionsLoadResult | undefined> {
    return this.forward("process options load", (to) =>
      to.chat.processOptionsLoad(to.adapter, event, options),
    );
  }

  getState(): StateAdapter {
    return this.state;
  }

  getUserName(): string {
    return this.userName;
  }

  getLogger(_component: string): Logger {
    return this.logger;
  }

  /** Runs `call` on the picked instance; refused (503 through the adapter) when none answers. */
  private forward<T>(step: string, call: (to: RoutedInstance) => Promise<T>): Promise<T> {
    const to = this.pick();
    if (!to) return Promise.reject(refusal(step, "no instance of the bot is running; restart one"));
    const died = to.died.then(() => {
      throw refusal(step, "the instance died before it answered; retry");
    });
    return Promise.race([call(to), died]);
  }
}

/** The adapter answers it through core's `webhookErrorResponse`: 503 with `Retry-After`. */
function refusal(step: string, message: string): AdmissionRejectedError {
  return new AdmissionRejectedError("shutdown", 1_000, message, { step });
}
