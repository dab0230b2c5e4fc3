import {
  type Adapter,
  type Attachment,
  type ChatHost,
  defaultEmojiResolver,
  type JsonValue,
  type Logger,
  type ProcessOptions,
} from "@baton/core";
import type { TelegramCallbackPayload } from "./cards.js";
import type { TelegramChatMemberEvent } from "./events.js";
import {
  authorOfChat,
  authorOfMessage,
  authorOfUser,
  commandOf,
  hasReadableContent,
  messageFromTelegram,
  type TelegramBotIdentity,
  threadIdOfMessage,
} from "./message.js";
import type { TelegramMessage, TelegramReaction, TelegramUpdate, TelegramUser } from "./parse.js";
import { routeOfTelegramMessage, type TelegramMessageRoute } from "./service-messages.js";
import { encodeTelegramMessageId, encodeTelegramThreadId } from "./thread-id.js";

/** How long an update id stays claimed: Telegram stops retrying an update long before. */
export const UPDATE_CLAIM_TTL_MS = 24 * 60 * 60 * 1_000;
/** How long a claim may stay pending (claimed, not yet accepted) before another may take it. */
export const UPDATE_PENDING_TTL_MS = 60_000;
const PENDING = "pending";
const DONE = "done";

/**
 * Another instance claimed this update and has not finished accepting it: answered 503 (the
 * webhook is retried) or retried by the poller, which keeps its offset until then.
 */
export class TelegramUpdateInProgressError extends Error {
  override readonly name = "TelegramUpdateInProgressError";

  constructor(readonly updateId: number) {
    super(`update ${updateId} is being accepted by another instance`);
  }
}

/** What update handling needs from its adapter. */
export interface TelegramUpdateTarget {
  readonly adapter: Adapter;
  readonly host: ChatHost;
  readonly allowedUserIds: ReadonlySet<string> | undefined;
  logger(): Logger;
  /** The bot's identity (fetched with `getMe` when not configured). */
  identity(): Promise<TelegramBotIdentity & { readonly scope: string }>;
  withFetcher(attachment: Attachment): Attachment;
  /** Decodes a callback's data, looking up payloads kept in the State. */
  decodeCallback(data: string | undefined): Promise<TelegramCallbackPayload>;
  answerCallback(queryId: string): Promise<void>;
  startTyping(threadId: string): Promise<void>;
  chatMember(event: TelegramChatMemberEvent): Promise<void>;
}

/** The user an update comes from, when it has one. */
function userOf(update: TelegramUpdate): TelegramUser | undefined {
  const message =
    update.message ?? update.edited_message ?? update.channel_post ?? update.edited_channel_post;
  return (
    message?.from ??
    update.callback_query?.from ??
    update.message_reaction?.user ??
    update.my_chat_member?.from
  );
}

/** True when the update passes `allowedUserIds` (channel posts carry no user and pass only without a list). */
export function isAllowedUpdate(update: TelegramUpdate, allowed: ReadonlySet<string> | undefined) {
  if (allowed === undefined) return true;
  const user = userOf(update);
  return user !== undefined && allowed.has(String(user.id));
}

/** The State key that claims one update id for one bot. */
export function updateClaimKey(scope: string, updateId: number): string {
  return `telegram:update:${scope}:${updateId}`;
}

/**
 * Runs one update exactly once per bot across instances: the update id is claimed in the State
 * first (a duplicate is acknowledged and dropped); if handing it to the Chat then fails, the
 * claim is released so Telegram's retry is processed — no mark is left behind by a failure.
 */
export async function dispatchTelegramUpdate(
  target: TelegramUpdateTarget,
  update: TelegramUpdate,
  options: ProcessOptions = {},
): Promise<"dispatched" | "duplicate" | "ignored"> {
  if (!isAllowedUpdate(update, target.allowedUserIds)) {
    target.logger().info("telegram: update from a user not in allowedUserIds ignored", {
      updateId: update.update_id,
    });
    return "ignored";
  }
  const identity = await target.identity();
  if (update.update_id === undefined) return route(target, update, identity, options);
  const state = target.host.getState();
  const key = updateClaimKey(identity.scope, update.update_id);
  // The claim is "pending" until the Chat accepted the update, and short-lived: an instance that
  // dies in between leaves a claim that expires, so the update is not lost with it.
  if (!(await state.setIfNotExists(key, PENDING, UPDATE_PENDING_TTL_MS))) {
    if ((await state.get(key)) === PENDING)
      throw new TelegramUpdateInProgressError(update.update_id);
    return "duplicate";
  }
  try {
    const result = await route(target, update, identity, options);
    await state.set(key, DONE, UPDATE_CLAIM_TTL_MS);
    return result;
  } catch (error) {
    await state.delete(key).catch(() => undefined);
    throw error;
  }
}

/**
 * Runs an event's handlers after the answer (handed to `waitUntil`): Telegram waits for the
 * webhook's answer, and a long handler must not make it retry. A failure is only logged.
 */
function detach(
  target: TelegramUpdateTarget,
  options: ProcessOptions,
  work: () => Promise<unknown>,
) {
  const task = work().catch((error: unknown) => {
    target.logger().error("telegram: event handler failed", { error });
  });
  options.waitUntil?.(task);
}

async function route(
  target: TelegramUpdateTarget,
  update: TelegramUpdate,
  bot: TelegramBotIdentity,
  options: ProcessOptions,
): Promise<"dispatched" | "ignored"> {
  const { adapter, host } = target;
  const message = update.message ?? update.channel_post;
  if (message !== undefined) return onMessage(target, message, bot, update, options);
  const edited = update.edited_message ?? update.edited_channel_post;
  if (edited !== undefined) {
    const parsed = messageFromTelegram(edited, toContext(target, bot, update));
    detach(target, options, () => host.processMessageUpdated(adapter, parsed, options));
    return "dispatched";
  }
  if (update.callback_query !== undefined) {
    await onCallback(target, update, bot, options);
    return "dispatched";
  }
  if (update.message_reaction !== undefined) {
    await onReaction(target, update, bot, options);
    return "dispatched";
  }
  if (update.my_chat_member !== undefined) {
    const member = update.my_chat_member;
    detach(target, options, () =>
      target.chatMember({
        threadId: encodeTelegramThreadId({ chatId: String(member.chat.id) }),
        chat: member.chat,
        from: authorOfUser(member.from, bot),
        oldStatus: member.old_chat_member.status,
        newStatus: member.new_chat_member.status,
        raw: member,
      }),
    );
    return "dispatched";
  }
  target.logger().debug("telegram: update kind not handled", { updateId: update.update_id });
  return "ignored";
}

function toContext(target: TelegramUpdateTarget, bot: TelegramBotIdentity, update: TelegramUpdate) {
  return { bot, withFetcher: (a: Attachment) => target.withFetcher(a), raw: update };
}

async function onMessage(
  target: TelegramUpdateTarget,
  message: TelegramMessage,
  bot: TelegramBotIdentity,
  update: TelegramUpdate,
  options: ProcessOptions,
): Promise<"dispatched" | "ignored"> {
  const threadId = threadIdOfMessage(message);
  const routing = routeOfTelegramMessage(message, hasReadableContent(message));
  if (routing.kind === "ignored") {
    target.logger().debug("telegram: service message ignored", {
      updateId: update.update_id,
      reason: routing.reason,
    });
    return "ignored";
  }
  if (routing.kind !== "content") {
    onServiceEvent(target, message, routing, bot, update, options);
    return "dispatched";
  }
  if (message.chat.type === "private") {
    // The indicator shows before the handler starts (its reply then clears it); failing to show
    // it is not an error.
    await target.startTyping(threadId).catch((error: unknown) => {
      target.logger().debug("telegram: typing indicator failed", { error });
    });
  }
  const command = commandOf(message, bot);
  if (command !== undefined && (message.from ?? message.sender_chat) !== undefined) {
    const event = {
      command: command.command,
      text: command.text,
      user: authorOfMessage(message, bot),
      channelId: threadId,
      raw: update as unknown as JsonValue,
    };
    detach(target, options, () => target.host.processSlashCommand(target.adapter, event, options));
    return "dispatched";
  }
  await target.host.receiveMessage(
    target.adapter,
    threadId,
    async () => messageFromTelegram(message, toContext(target, bot, update)),
    options,
  );
  return "dispatched";
}

/**
 * New members become the Chat's member-joined events (one per member; `channelId` is the chat's
 * `telegram:{chatId}`, `inviterId` whoever added them); an answer to a reply-keyboard button an
 * action on the service message. Both run after the answer, as other events do.
 */
function onServiceEvent(
  target: TelegramUpdateTarget,
  message: TelegramMessage,
  route: Exclude<TelegramMessageRoute, { kind: "content" | "ignored" }>,
  bot: TelegramBotIdentity,
  update: TelegramUpdate,
  options: ProcessOptions,
): void {
  const { adapter, host } = target;
  const raw = update as unknown as JsonValue;
  if (route.kind === "members-joined") {
    const channelId = encodeTelegramThreadId({ chatId: String(message.chat.id) });
    for (const member of route.members) {
      const inviter = message.from;
      const event = {
        channelId,
        userId: String(member.id),
        ...(inviter === undefined || inviter.id === member.id
          ? {}
          : { inviterId: String(inviter.id) }),
        raw,
      };
      detach(target, options, async () =>
        host.processMemberJoinedChannel?.(adapter, event, options),
      );
    }
    return;
  }
  const event = {
    actionId: route.actionId,
    value: route.value,
    user: authorOfMessage(message, bot),
    messageId: encodeTelegramMessageId(message.chat.id, message.message_id),
    threadId: threadIdOfMessage(message),
    raw,
  };
  detach(target, options, () => host.processAction(adapter, event, options));
}

async function onCallback(
  target: TelegramUpdateTarget,
  update: TelegramUpdate,
  bot: TelegramBotIdentity,
  options: ProcessOptions,
): Promise<void> {
  const query = update.callback_query;
  if (query === undefined) return;
  // Telegram shows a spinner on the button until the query is answered: answer at once.
  await target.answerCallback(query.id).catch((error: unknown) => {
    target.logger().warn("telegram: answerCallbackQuery failed", { error });
  });
  const { actionId, value } = await target.decodeCallback(query.data);
  const message = query.message;
  const threadId = message
    ? threadIdOfMessage(message)
    : encodeTelegramThreadId({ chatId: String(query.from.id) });
  const event = {
    actionId,
    ...(value === undefined ? {} : { value }),
    user: authorOfUser(query.from, bot),
    messageId: message ? encodeTelegramMessageId(message.chat.id, message.message_id) : "",
    threadId,
    triggerId: query.id,
    raw: update as unknown as JsonValue,
  };
  detach(target, options, () => target.host.processAction(target.adapter, event, options));
}

function emojiKeys(reactions: readonly TelegramReaction[]): string[] {
  return reactions.map((reaction) =>
    reaction.type === "emoji"
      ? reaction.emoji
      : reaction.type === "custom_emoji"
        ? `custom:${reaction.custom_emoji_id}`
        : "paid",
  );
}

async function onReaction(
  target: TelegramUpdateTarget,
  update: TelegramUpdate,
  bot: TelegramBotIdentity,
  options: ProcessOptions,
): Promise<void> {
  const reaction = update.message_reaction;
  if (reaction === undefined) return;
  const before = emojiKeys(reaction.old_reaction);
  const after = emojiKeys(reaction.new_reaction);
  const changes = [
    ...after.filter((key) => !before.includes(key)).map((key) => ({ key, added: true })),
    ...before.filter((key) => !after.includes(key)).map((key) => ({ key, added: false })),
  ];
  // An anonymous admin (or a channel) reacts as a chat: `actor_chat`, and no `user`.
  const user = reaction.user
    ? authorOfUser(reaction.user, bot)
    : authorOfChat(reaction.actor_chat ?? reaction.chat);
  const threadId = encodeTelegramThreadId({ chatId: String(reaction.chat.id) });
  for (const change of changes) {
    const event = {
      emoji: defaultEmojiResolver.fromGChat(change.key),
      rawEmoji: change.key,
      added: change.added,
      user,
      messageId: encodeTelegramMessageId(reaction.chat.id, reaction.message_id),
      threadId,
      raw: update as unknown as JsonValue,
    };
    detach(target, options, () => target.host.processReaction(target.adapter, event, options));
  }
}
