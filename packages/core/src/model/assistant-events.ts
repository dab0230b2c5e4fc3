/**
 * One entity of what the user is looking at (Slack's active-view context), normalized by the
 * adapter: `kind` names it (`channel`, `canvas`, `message`, … or `unknown`), the other fields
 * are the kind's ids.
 */
export interface AppContextEntity {
  readonly kind: string;
  readonly [field: string]: unknown;
}

/** Where an assistant thread was opened from (Slack: `assistant_thread.context`). */
export interface AssistantThreadContext {
  readonly channelId?: string;
  readonly teamId?: string;
  readonly enterpriseId?: string;
  readonly threadEntryPoint?: string;
  readonly forceSearch?: boolean;
}

/** A user opened an assistant thread (Slack's `assistant_thread_started`). */
export interface AssistantThreadStartedEvent {
  readonly threadId: string;
  readonly threadTs: string;
  readonly channelId: string;
  readonly userId: string;
  readonly context: AssistantThreadContext;
  readonly raw?: unknown;
}

/** The user moved while an assistant thread is open (Slack's `assistant_thread_context_changed`). */
export type AssistantContextChangedEvent = AssistantThreadStartedEvent;

/** A user opened the app's home (Slack's `app_home_opened`); `tab` is `home` or `messages`. */
export interface AppHomeOpenedEvent {
  readonly channelId: string;
  readonly userId: string;
  readonly tab?: string;
  /** What the user was looking at, when the platform says. */
  readonly entities?: readonly AppContextEntity[];
  readonly raw?: unknown;
}

/** What the user is looking at changed while they talk to the agent (`app_context_changed`). */
export interface AppContextChangedEvent {
  readonly channelId: string;
  readonly userId: string;
  /** Normalized entities, in the platform's order; `[]` when it sent none. */
  readonly entities: readonly AppContextEntity[];
  readonly raw?: unknown;
}

/** A user joined a channel (Slack's `member_joined_channel`). */
export interface MemberJoinedChannelEvent {
  readonly channelId: string;
  readonly userId: string;
  readonly inviterId?: string;
  readonly raw?: unknown;
}
