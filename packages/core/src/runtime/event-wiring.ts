import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { TurnGate } from "../coordination/turn-gate.js";
import { EventDispatcher } from "../dispatch/event-dispatcher.js";
import type { HandlerRegistry } from "../dispatch/handler-registry.js";
import { InteractionDispatcher } from "../dispatch/interaction-dispatcher.js";
import { ModalContexts } from "../dispatch/modal-context.js";
import { callbackResolver } from "./callback-resolver.js";
import type { Channel } from "./channel.js";
import type { ResolvedChatConfig } from "./chat-config.js";
import { EventTurns } from "./event-turns.js";
import type { Lifecycle } from "./lifecycle.js";
import { createSentMessageHandle, type SentMessage } from "./sent-message.js";
import type { Thread } from "./thread.js";

/** The non-message event machinery of one `Chat`. */
export interface EventWiring {
  readonly events: EventDispatcher<Thread, Channel>;
  readonly interactions: InteractionDispatcher<Thread, Channel, SentMessage>;
  readonly turns: EventTurns;
  /** Where handler failures of events without a dispatcher of their own are logged. */
  readonly logger: Logger;
}

/** What {@link wireEvents} needs from its `Chat`. */
export interface EventWiringDeps {
  readonly config: ResolvedChatConfig;
  readonly registry: HandlerRegistry<Thread, Channel, SentMessage>;
  readonly lifecycle: Lifecycle;
  readonly gate: TurnGate<unknown>;
  threadFor(adapter: Adapter, threadId: string): Thread;
  channelFor(adapter: Adapter, channelId: string): Channel;
  registered(adapter: Adapter): Adapter;
}

/** Builds the dispatchers of actions, reactions, commands, modals and selects, and their turns. */
export function wireEvents(deps: EventWiringDeps): EventWiring {
  const { config, registry, lifecycle, gate, threadFor, channelFor } = deps;
  const { logger, state, clock } = config;
  const modalContexts = new ModalContexts(state, logger);
  const events = new EventDispatcher({
    registry,
    logger,
    shutdownSignal: lifecycle.shutdownSignal,
    resolveCallback: callbackResolver(state),
    modalContexts,
    threadFor,
    channelFor,
  });
  const interactions = new InteractionDispatcher({
    registry,
    logger,
    contexts: modalContexts,
    background: (task) => void lifecycle.track(task),
    threadFor,
    channelFor,
    sentMessageFor: (adapter, threadId, messageId) =>
      createSentMessageHandle(adapter, { id: messageId, threadId }, threadId, logger),
  });
  const turns = new EventTurns({
    clock,
    logger,
    lifecycle,
    gate,
    registered: (adapter) => deps.registered(adapter),
  });
  return { events, interactions, turns, logger };
}
