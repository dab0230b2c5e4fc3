import type { Adapter, ChatInstance, FetchResult, RawMessage, ThreadInfo } from "chat";
import { Message } from "chat";

/** Upstream's thread-id payload for {@link UpstreamBenchAdapter}: `bench:{channel}:{thread}`. */
export interface BenchThread {
  readonly channel: string;
  readonly thread: string;
}

/**
 * The smallest adapter upstream `chat` accepts, so `chat.processMessage(adapter, threadId,
 * message)` runs its real dispatch (dedupe, lock, queue, routing) with nothing platform-shaped
 * in the measurement. Thread ids are `{name}:{channel}:{thread}`, like Baton's mock adapter.
 * Outbound calls succeed without doing anything: the bench handler does not post.
 */
export class UpstreamBenchAdapter implements Adapter<BenchThread, unknown> {
  readonly name: string;
  readonly userName: string;
  readonly botUserId = "U_BOT";

  constructor(name = "bench", userName = "bot") {
    this.name = name;
    this.userName = userName;
  }

  async initialize(_chat: ChatInstance): Promise<void> {}

  async handleWebhook(_request: Request): Promise<Response> {
    return new Response("the bench adapter receives no webhooks", { status: 404 });
  }

  encodeThreadId(data: BenchThread): string {
    return `${this.name}:${data.channel}:${data.thread}`;
  }

  decodeThreadId(threadId: string): BenchThread {
    const [, channel = "", thread = ""] = threadId.split(":");
    return { channel, thread };
  }

  channelIdFromThreadId(threadId: string): string {
    return `${this.name}:${this.decodeThreadId(threadId).channel}`;
  }

  isDM(threadId: string): boolean {
    return this.decodeThreadId(threadId).channel.startsWith("D");
  }

  parseMessage(raw: unknown): Message<unknown> {
    const { id, threadId, text } = raw as { id: string; threadId: string; text: string };
    return createUpstreamMessage({ id, threadId, text });
  }

  renderFormatted(): string {
    return "";
  }

  async postMessage(threadId: string): Promise<RawMessage<unknown>> {
    return { id: "bench-reply", threadId, raw: null };
  }

  async editMessage(threadId: string, messageId: string): Promise<RawMessage<unknown>> {
    return { id: messageId, threadId, raw: null };
  }

  async deleteMessage(): Promise<void> {}
  async addReaction(): Promise<void> {}
  async removeReaction(): Promise<void> {}
  async startTyping(): Promise<void> {}

  async fetchMessages(): Promise<FetchResult<unknown>> {
    return { messages: [] };
  }

  async fetchThread(threadId: string): Promise<ThreadInfo> {
    return { id: threadId, channelId: this.channelIdFromThreadId(threadId), metadata: {} };
  }
}

/** What the bench puts in a message; the rest is fixed. */
export interface BenchMessageInit {
  readonly id: string;
  readonly threadId: string;
  readonly text: string;
}

/**
 * An upstream `Message` from a human that mentions the bot, as a platform adapter that knows
 * about mentions builds it (`isMention: true`, so no text detection is needed).
 */
export function createUpstreamMessage(init: BenchMessageInit): Message<unknown> {
  return new Message<unknown>({
    id: init.id,
    threadId: init.threadId,
    text: init.text,
    formatted: { type: "root", children: [] },
    raw: null,
    author: {
      userId: "U_USER",
      userName: "user",
      fullName: "Bench User",
      isBot: false,
      isMe: false,
    },
    metadata: { dateSent: new Date(), edited: false },
    attachments: [],
    isMention: true,
  });
}
