import type { JsonValue, Logger } from "@baton/core";
import type {
  TeamsConversationUpdateEvent,
  TeamsEventHandler,
  TeamsInstallationUpdateEvent,
} from "./events.js";
import { isBotAccount, threadIdOf } from "./message.js";
import type { TeamsActivity } from "./parse.js";

/**
 * The adapter-level handlers of `conversationUpdate` and `installationUpdate` activities. Each
 * handler runs in registration order; a failing one is logged and never stops the others.
 */
export class TeamsLifecycleEvents {
  private readonly conversationHandlers: TeamsEventHandler<TeamsConversationUpdateEvent>[] = [];
  private readonly installationHandlers: TeamsEventHandler<TeamsInstallationUpdateEvent>[] = [];

  constructor(
    private readonly appId: string,
    private readonly logger: () => Logger,
  ) {}

  /** Registers a handler of member and bot-added changes. */
  onConversationUpdate(handler: TeamsEventHandler<TeamsConversationUpdateEvent>): void {
    this.conversationHandlers.push(handler);
  }

  /** Registers a handler of app installs and removals. */
  onInstallationUpdate(handler: TeamsEventHandler<TeamsInstallationUpdateEvent>): void {
    this.installationHandlers.push(handler);
  }

  /** Hands a lifecycle activity to its handlers; resolves once every one has finished. */
  async dispatch(activity: TeamsActivity): Promise<void> {
    const threadId = threadIdOf(activity);
    const raw = activity.raw as unknown as JsonValue;
    if (activity.type === "conversationUpdate") {
      const event: TeamsConversationUpdateEvent = {
        threadId,
        membersAdded: activity.membersAdded,
        membersRemoved: activity.membersRemoved,
        botAdded: activity.membersAdded.some((member) => isBotAccount(this.appId, member.id)),
        raw,
      };
      await this.emit(this.conversationHandlers, event, "conversation update handler");
      return;
    }
    const event: TeamsInstallationUpdateEvent = { threadId, action: activity.action, raw };
    await this.emit(this.installationHandlers, event, "installation update handler");
  }

  private async emit<E>(handlers: readonly TeamsEventHandler<E>[], event: E, what: string) {
    for (const handler of handlers) {
      try {
        await handler(event);
      } catch (error) {
        this.logger().error(`teams: ${what} failed`, { error });
      }
    }
  }
}
