import type { Message } from "../model/message.js";

/** A message as the read tools hand it to the model: plain JSON, dates as ISO strings. */
export interface ProjectedMessage {
  id: string;
  threadId: string;
  text: string;
  author: {
    userId: string;
    userName: string;
    fullName: string;
    isBot: boolean | "unknown";
    isMe: boolean;
  };
  /** ISO 8601. */
  dateSent: string;
  edited: boolean;
  isMention: boolean | undefined;
  /** What is attached, without content (the model reads it through `toAiMessages` instead). */
  attachments: {
    type: "image" | "file" | "video" | "audio";
    name: string | undefined;
    mimeType: string | undefined;
    url: string | undefined;
  }[];
}

/** Upstream's projection: the fields a model needs, nothing it cannot serialize. */
export function projectMessage(message: Message): ProjectedMessage {
  const { author } = message;
  return {
    id: message.id,
    threadId: message.threadId,
    text: message.text,
    author: {
      userId: author.userId,
      userName: author.userName,
      fullName: author.fullName,
      isBot: author.isBot,
      isMe: author.isMe,
    },
    dateSent: message.metadata.dateSent.toISOString(),
    edited: message.metadata.edited,
    isMention: message.isMention,
    attachments: (message.attachments ?? []).map((attachment) => ({
      type: attachment.type,
      name: attachment.name,
      mimeType: attachment.mimeType,
      url: attachment.url,
    })),
  };
}
