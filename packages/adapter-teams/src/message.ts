import { type Attachment, type Author, Message, toPlainText } from "@baton/core";
import {
  createAnonymousAttachmentFetchData,
  createTeamsAttachment,
  type TeamsAttachmentFetchers,
} from "./attachments.js";
import type { TeamsFormatConverter } from "./format.js";
import type { TeamsAccount, TeamsActivity } from "./parse.js";
import { encodeTeamsThreadId } from "./thread-id.js";

/** The thread an activity belongs to: its conversation (reply chain included) and service URL. */
export function threadIdOf(activity: TeamsActivity): string {
  return encodeTeamsThreadId({
    conversationId: activity.conversation.id,
    serviceUrl: activity.serviceUrl,
  });
}

/** True for the bot's own account: its app id, or `28:<app id>` (upstream's rule). */
export function isBotAccount(appId: string, id: string | undefined): boolean {
  return id !== undefined && (id === appId || id === `28:${appId}`);
}

/** A Teams user as a Baton author; `email` when Graph gave one (see `senderEmail`). */
export function authorOf(from: TeamsAccount | undefined, appId: string, email?: string): Author {
  const me = isBotAccount(appId, from?.id);
  const name = from?.name ?? from?.id ?? "unknown";
  return {
    userId: from?.id ?? "unknown",
    userName: name,
    fullName: name,
    ...(email === undefined ? {} : { email }),
    isBot: me ? true : "unknown",
    isMe: me,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The mention entities that name the bot. */
function botMentions(activity: TeamsActivity, appId: string): Record<string, unknown>[] {
  return activity.entities.filter((entity) => {
    if (entity.type !== "mention") return false;
    const mentioned = entity.mentioned as { id?: unknown } | undefined;
    const id = typeof mentioned?.id === "string" ? mentioned.id : undefined;
    return isBotAccount(appId, id) || (id !== undefined && id === activity.recipient?.id);
  });
}

/**
 * The message text without the bot's own `<at>` mention (Teams puts it in the text of every
 * message that addresses the bot), and whether there was one.
 */
export function stripBotMention(activity: TeamsActivity, appId: string) {
  const mentions = botMentions(activity, appId);
  let text = activity.text;
  for (const mention of mentions) {
    const shown =
      typeof mention.text === "string"
        ? mention.text
        : `<at>${(mention.mentioned as { name?: string } | undefined)?.name ?? ""}</at>`;
    text = text.replace(new RegExp(`\\s*${escapeRegExp(shown)}\\s*`), " ");
  }
  return { text: text.trim(), mentioned: mentions.length > 0 };
}

function attachmentsOf(activity: TeamsActivity, fetchers: TeamsAttachmentFetchers): Attachment[] {
  return activity.attachments
    .map((item) => createTeamsAttachment(item, activity.serviceUrl, fetchers))
    .filter((attachment): attachment is Attachment => attachment !== undefined);
}

/** Fetchers that refuse to download: for messages parsed where no adapter can fetch. */
const NO_FETCH: TeamsAttachmentFetchers = {
  createAnonymousFetchData: createAnonymousAttachmentFetchData,
  fetchAuthenticated: async () => {
    throw new Error("teams: this message was parsed without an adapter to fetch with");
  },
};

/**
 * A message activity as a Baton message (the bot's mention removed, `isMention` set), its
 * author's `email` when one is known.
 */
export function messageFromActivity(
  activity: TeamsActivity,
  appId: string,
  converter: TeamsFormatConverter,
  receivedAtMs: number,
  edited = false,
  fetchers: TeamsAttachmentFetchers = NO_FETCH,
  email?: string,
): Message {
  const { text, mentioned } = stripBotMention(activity, appId);
  const personal =
    activity.conversation.conversationType === "personal" ||
    (!activity.conversation.id.startsWith("19:") && !activity.conversation.isGroup);
  // One parse serves both: the tree, and the plain text read off it.
  const formatted = converter.toAst(text);
  const sent = activity.timestamp ? new Date(activity.timestamp) : new Date(receivedAtMs);
  return new Message({
    id: activity.id ?? "",
    threadId: threadIdOf(activity),
    text: toPlainText(formatted),
    formatted,
    author: authorOf(activity.from, appId, email),
    metadata: {
      dateSent: Number.isNaN(sent.getTime()) ? new Date(receivedAtMs) : sent,
      edited,
      ...(edited ? { editedAt: new Date(receivedAtMs) } : {}),
    },
    attachments: attachmentsOf(activity, fetchers),
    isMention: mentioned || personal,
    raw: activity.raw as never,
  });
}
