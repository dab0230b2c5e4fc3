/** A user for built updates. */
export interface BuiltUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
}

/** Where a built message is written. */
export interface BuiltChat {
  id: number;
  type: "private" | "group" | "supergroup" | "channel";
  title?: string;
  username?: string;
  first_name?: string;
  is_forum?: boolean;
}

/** Options of a built message. */
export interface BuiltMessageOptions {
  chat?: BuiltChat;
  from?: BuiltUser;
  /** A forum topic: sets `message_thread_id` and `is_topic_message`. */
  topicId?: number;
  entities?: {
    type: string;
    offset: number;
    length: number;
    url?: string;
    user?: BuiltUser;
    language?: string;
  }[];
  replyTo?: Record<string, unknown>;
  messageId?: number;
  /** Seconds since the epoch. Default 1 767 225 600 (2026-01-01). */
  date?: number;
  extra?: Record<string, unknown>;
}

/** A default user and chats for built updates. */
export const TEST_USER: BuiltUser = {
  id: 7527593,
  is_bot: false,
  first_name: "Test",
  last_name: "User",
  username: "test_user",
};
export const PRIVATE_CHAT: BuiltChat = {
  id: 7527593,
  type: "private",
  first_name: "Test",
  username: "test_user",
};
export const GROUP_CHAT: BuiltChat = {
  id: -1001234567890,
  type: "supergroup",
  title: "Test Group",
};
export const FORUM_CHAT: BuiltChat = {
  id: -1009876543210,
  type: "supergroup",
  title: "Test Forum",
  is_forum: true,
};

/**
 * Builds Telegram updates as the Bot API sends them, with increasing `update_id`s and message
 * ids: private and group messages, forum topic messages, `/commands` and `@mentions` with their
 * entities, edits, channel posts, service messages, button taps, reactions and membership changes.
 */
export class TelegramUpdateBuilder {
  private updateId: number;
  private messageId = 100;

  constructor(
    readonly botUserName = "baton_test_bot",
    firstUpdateId = 1_000,
  ) {
    this.updateId = firstUpdateId;
  }

  /** The next update id (each built update takes one). */
  nextUpdateId(): number {
    this.updateId += 1;
    return this.updateId;
  }

  /** A message object (not an update). */
  messageObject(text: string, options: BuiltMessageOptions = {}): Record<string, unknown> {
    this.messageId += 1;
    const chat = options.chat ?? PRIVATE_CHAT;
    return {
      message_id: options.messageId ?? this.messageId,
      date: options.date ?? 1_767_225_600,
      chat,
      ...(chat.type === "channel" ? {} : { from: options.from ?? TEST_USER }),
      ...(options.topicId === undefined
        ? {}
        : { message_thread_id: options.topicId, is_topic_message: true }),
      text,
      ...(options.entities === undefined ? {} : { entities: options.entities }),
      ...(options.replyTo === undefined ? {} : { reply_to_message: options.replyTo }),
      ...options.extra,
    };
  }

  /** A `message` update. */
  message(text: string, options: BuiltMessageOptions = {}) {
    return { update_id: this.nextUpdateId(), message: this.messageObject(text, options) };
  }

  /**
   * A service message: no text, only `fields` (`pinned_message`, `new_chat_members`,
   * `forum_topic_created`, …), as Telegram sends them into a chat.
   */
  serviceMessage(fields: Record<string, unknown>, options: BuiltMessageOptions = {}) {
    const { text: _text, ...message } = this.messageObject("", options);
    return { update_id: this.nextUpdateId(), message: { ...message, ...fields } };
  }

  /** A message starting with `@botname` and its `mention` entity. */
  mention(text: string, options: BuiltMessageOptions = {}) {
    const handle = `@${this.botUserName}`;
    return this.message(`${handle} ${text}`, {
      ...options,
      entities: [
        { type: "mention", offset: 0, length: handle.length },
        ...(options.entities ?? []),
      ],
    });
  }

  /** A `/command` (optionally `@botname`-addressed) with its `bot_command` entity. */
  command(
    command: string,
    args = "",
    options: BuiltMessageOptions & { addressedTo?: string } = {},
  ) {
    const head = options.addressedTo ? `${command}@${options.addressedTo}` : command;
    return this.message(args === "" ? head : `${head} ${args}`, {
      ...options,
      entities: [{ type: "bot_command", offset: 0, length: head.length }],
    });
  }

  /** An `edited_message` update of an earlier message. */
  edited(message: Record<string, unknown>, text: string) {
    return {
      update_id: this.nextUpdateId(),
      edited_message: { ...message, text, edit_date: 1_767_225_700 },
    };
  }

  /** A `channel_post` update. */
  channelPost(
    text: string,
    chat: BuiltChat = { id: -1005555555555, type: "channel", title: "News" },
  ) {
    return { update_id: this.nextUpdateId(), channel_post: this.messageObject(text, { chat }) };
  }

  /** A tap on an inline keyboard button of `message`. */
  callbackQuery(
    data: string | undefined,
    message: Record<string, unknown>,
    from: BuiltUser = TEST_USER,
  ) {
    return {
      update_id: this.nextUpdateId(),
      callback_query: {
        id: `cbq-${this.updateId}`,
        from,
        message,
        chat_instance: "instance-1",
        ...(data === undefined ? {} : { data }),
      },
    };
  }

  /** A `message_reaction` update: `user` changed their reactions from `before` to `after`. */
  reaction(
    messageId: number,
    before: string[],
    after: string[],
    chat: BuiltChat = PRIVATE_CHAT,
    user: BuiltUser = TEST_USER,
  ) {
    const toReactions = (list: string[]) => list.map((emoji) => ({ type: "emoji", emoji }));
    return {
      update_id: this.nextUpdateId(),
      message_reaction: {
        chat,
        message_id: messageId,
        user,
        date: 1_767_225_600,
        old_reaction: toReactions(before),
        new_reaction: toReactions(after),
      },
    };
  }

  /** A `my_chat_member` update: the bot's status in `chat` went from `before` to `after`. */
  myChatMember(
    chat: BuiltChat,
    before: string,
    after: string,
    botId: number,
    from: BuiltUser = TEST_USER,
  ) {
    const bot = { id: botId, is_bot: true, first_name: "Bot", username: this.botUserName };
    return {
      update_id: this.nextUpdateId(),
      my_chat_member: {
        chat,
        from,
        date: 1_767_225_600,
        old_chat_member: { status: before, user: bot },
        new_chat_member: { status: after, user: bot },
      },
    };
  }
}
