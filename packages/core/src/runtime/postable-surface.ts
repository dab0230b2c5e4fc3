import type { CardPost } from "../content/cards/card-post.js";
import type { AdapterPostableMessage } from "../contracts/postable-message.js";
import type {
  EphemeralMessage,
  ScheduledMessage,
  ScheduleOptions,
} from "../contracts/thread-surface-types.js";
import type { Author } from "../model/author.js";
import type { Message } from "../model/message.js";
import type { PostEphemeralOptions } from "./poster.js";
import type { SentMessage } from "./sent-message.js";

/** What a handler can post where streams are not taken: every postable kind, JSX cards too. */
export type PostContent = AdapterPostableMessage | CardPost;

/**
 * What Thread and Channel both offer besides `post` (upstream's `Postable`): ephemeral messages,
 * scheduled posts and mentions. Content is prepared as for `post` — cards validated, JSX
 * resolved, callback buttons encoded, cards sent as text where the adapter has no cards.
 */
export interface PostableSurface {
  /**
   * Posts a message only `user` (an id, or an `Author` such as `message.author`) sees. Natively
   * where the adapter has `ephemeral`; otherwise with `fallbackToDM: true` in the user's DM
   * (`usedFallback: true`), and with `false` nothing is sent and the result is `null` — also
   * `null` when the adapter has neither ephemeral messages nor DMs. Streams are refused.
   */
  postEphemeral(
    user: string | Author,
    message: PostContent,
    options: PostEphemeralOptions,
  ): Promise<EphemeralMessage | null>;
  /**
   * Schedules `message` for `options.postAt`, returning the platform's `ScheduledMessage`
   * (`cancel()` withdraws it). A `NotSupportedError` (feature `scheduling`) where the adapter
   * cannot schedule; nothing is written then.
   */
  schedule(message: PostContent, options: ScheduleOptions): Promise<ScheduledMessage>;
  /** The platform's mention markup for a user, e.g. `<@U123>` (the adapter's `mentionUser`). */
  mentionUser(userId: string): string;
}

/** What a Thread offers besides {@link PostableSurface} about messages and people. */
export interface ThreadPostingSurface extends PostableSurface {
  /**
   * Replies to one message with the platform's native reply (capability `replies`, else a
   * `NotSupportedError`, feature `replies`). A `Message` target must belong to this thread and
   * becomes `replyTo` of the result; an id is resolved only against messages the thread holds
   * (the current one, `recentMessages`). A stream is read to its end and sent as one reply.
   */
  reply(
    target: string | Message,
    message: PostContent | AsyncIterable<unknown>,
  ): Promise<SentMessage>;
  /**
   * Sends a read receipt for `message` (a `Message` of this thread, or an id); default: the
   * message being handled. A `NotSupportedError` (feature `readReceipts`) where the adapter has no
   * read receipts; a `ValidationError` outside a handler without a target, or for another
   * thread's message.
   */
  markAsRead(message?: string | Message): Promise<void>;
  /**
   * The distinct human authors of the thread (the current message's and its whole history's),
   * without the bot and other bots. Reads the history through the adapter: one call per page.
   */
  getParticipants(): Promise<Author[]>;
  /** `message` (one the bot sent) as a sent message of this thread, to edit or delete it. */
  createSentMessageFromMessage(message: Message): SentMessage;
}
