import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type {
  AppContextChangedEvent,
  AppHomeOpenedEvent,
  AssistantContextChangedEvent,
  AssistantThreadStartedEvent,
  MemberJoinedChannelEvent,
} from "../model/assistant-events.js";

/** A platform event as its handler sees it: the event with the adapter it came from. */
export type WithAdapter<T> = T & { readonly adapter: Adapter };

type Handler<T> = (event: WithAdapter<T>) => unknown;

/**
 * The handlers of the assistant and app-surface events (upstream `chat`'s
 * `onAssistantThreadStarted`, `onAssistantContextChanged`, `onAppHomeOpened`,
 * `onAppContextChanged`, `onMemberJoinedChannel`), in registration order.
 */
export class AssistantHandlers {
  readonly threadStarted: Handler<AssistantThreadStartedEvent>[] = [];
  readonly contextChanged: Handler<AssistantContextChangedEvent>[] = [];
  readonly appHomeOpened: Handler<AppHomeOpenedEvent>[] = [];
  readonly appContextChanged: Handler<AppContextChangedEvent>[] = [];
  readonly memberJoined: Handler<MemberJoinedChannelEvent>[] = [];
}

/**
 * Runs `handlers` one after the other with `event`. A handler that throws is logged and the
 * next one still runs: one broken hook must not hide the event from the others.
 */
export async function runAssistantHandlers<T>(
  handlers: readonly Handler<T>[],
  event: WithAdapter<T>,
  logger: Logger,
  what: string,
): Promise<void> {
  for (const handler of handlers) {
    try {
      await handler(event);
    } catch (error) {
      logger.error(`${what} handler failed`, { adapter: event.adapter.name, error });
    }
  }
}
