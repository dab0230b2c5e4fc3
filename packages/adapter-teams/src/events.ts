import type { JsonValue } from "@baton/core";
import type { TeamsAccount } from "./parse.js";

/** Members joined or left a conversation, or the bot was added (`conversationUpdate`). */
export interface TeamsConversationUpdateEvent {
  readonly threadId: string;
  readonly membersAdded: readonly TeamsAccount[];
  readonly membersRemoved: readonly TeamsAccount[];
  /** True when the bot itself is among `membersAdded`. */
  readonly botAdded: boolean;
  readonly raw: JsonValue;
}

/** The app was installed or removed (`installationUpdate`; `action` is `add` or `remove`). */
export interface TeamsInstallationUpdateEvent {
  readonly threadId: string;
  readonly action: string | undefined;
  readonly raw: JsonValue;
}

/** A handler of an adapter-level Teams event; a failure is logged, never rethrown. */
export type TeamsEventHandler<E> = (event: E) => void | Promise<void>;
