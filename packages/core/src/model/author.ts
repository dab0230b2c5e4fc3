/** Who wrote a message or triggered an event, as the platform reports it. */
export interface Author {
  /** The platform's stable user id. */
  userId: string;
  /** The handle (`@name`) without the `@`. */
  userName: string;
  /** The display name; equals `userName` when the platform has none. */
  fullName: string;
  /** True for any bot, including this one. */
  isBot: boolean | "unknown";
  /** True when the message was sent by this bot itself; such messages are never dispatched. */
  isMe: boolean;
  /** True for platform-generated messages (joins, topic changes); absent otherwise. */
  isSystem?: boolean;
  /** The user's email, when the platform shares it. */
  email?: string;
}
