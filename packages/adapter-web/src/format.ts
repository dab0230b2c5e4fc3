import { type AdapterPostableMessage, type Message, stringifyMarkdown } from "@baton/core";

/** How the browser should render a message's text. The playground shows all three as text. */
export type WebTextFormat = "plain" | "markdown" | "raw";

/** A message as the browser receives it: JSON, dates as epoch milliseconds. */
export interface WebWireMessage {
  id: string;
  threadId: string;
  text: string;
  format: WebTextFormat;
  author: { userId: string; userName: string; isBot: boolean; isMe: boolean };
  dateSentMs: number;
  edited: boolean;
  /** Orders messages of equal `dateSentMs` (a message sorts before the replies to it). */
  seq: number;
  /** Emoji names the bot reacted with, in the order added. */
  reactions: string[];
  /** Present and true for a message only this user sees (`postEphemeral`); never kept. */
  ephemeral?: boolean;
}

/**
 * One event on a user's stream (`GET …/events`), in publish order. `seq` increases across all
 * threads of the adapter. A `snapshot` replaces what a page shows for its thread; later events
 * update it by message id.
 */
export type WebEvent =
  | { type: "hello"; userId: string; userName: string; dmThreadId: string; serverNowMs: number }
  | { type: "snapshot"; seq: number; threadId: string; messages: WebWireMessage[] }
  | { type: "message"; seq: number; threadId: string; message: WebWireMessage }
  | { type: "edit"; seq: number; threadId: string; message: WebWireMessage }
  | { type: "delete"; seq: number; threadId: string; messageId: string }
  | {
      type: "reaction";
      seq: number;
      threadId: string;
      messageId: string;
      emoji: string;
      added: boolean;
    }
  | { type: "typing"; seq: number; threadId: string; status?: string };

/** Text and format of something a handler posted. */
export function toWebText(message: AdapterPostableMessage): {
  text: string;
  format: WebTextFormat;
} {
  if (typeof message === "string") return { text: message, format: "plain" };
  if ("markdown" in message) return { text: message.markdown, format: "markdown" };
  if ("raw" in message) return { text: message.raw, format: "raw" };
  // A tree is shown as the markdown it stands for; the page renders markdown itself.
  if ("ast" in message)
    return { text: stringifyMarkdown(message.ast).trimEnd(), format: "markdown" };
  // The web adapter declares no cards, so the runtime sends a card's text instead; a card that
  // arrives anyway (a direct adapter call) shows its fallback text or title.
  const card = "card" in message ? message.card : message;
  const fallback = "card" in message ? message.fallbackText : undefined;
  const title = (card as { title?: unknown }).title;
  return { text: fallback ?? (typeof title === "string" ? title : ""), format: "plain" };
}

/** The wire form of a kept message. */
export function toWireMessage(kept: {
  message: Message;
  seq: number;
  format: WebTextFormat;
  reactions: Iterable<string>;
}): WebWireMessage {
  const { message, format, reactions } = kept;
  return {
    id: message.id,
    threadId: message.threadId,
    text: message.text,
    format,
    author: {
      userId: message.author.userId,
      userName: message.author.userName,
      isBot: message.author.isBot === true,
      isMe: message.author.isMe,
    },
    dateSentMs: message.metadata.dateSent.getTime(),
    edited: message.metadata.edited,
    seq: kept.seq,
    reactions: [...reactions],
  };
}

/** One server-sent event: `event:` names the type, `data:` holds the JSON (one line). */
export function formatSse(event: WebEvent): string {
  // JSON.stringify never emits a raw newline, so one `data:` line is always enough.
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
