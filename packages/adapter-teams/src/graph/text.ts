/** A Microsoft Graph `chatMessage`, as far as Baton reads it. */
export interface GraphChatMessage {
  readonly id: string;
  readonly replyToId?: string | null;
  readonly createdDateTime?: string | null;
  readonly lastModifiedDateTime?: string | null;
  readonly body?: { readonly contentType?: string; readonly content?: string | null } | null;
  readonly from?: {
    readonly user?: { readonly id?: string; readonly displayName?: string | null } | null;
    readonly application?: { readonly id?: string; readonly displayName?: string | null } | null;
  } | null;
  readonly attachments?: readonly GraphAttachment[] | null;
}

/** An attachment of a Graph `chatMessage`; cards carry their JSON as a string in `content`. */
export interface GraphAttachment {
  readonly contentType?: string | null;
  readonly content?: string | null;
  readonly contentUrl?: string | null;
  readonly name?: string | null;
}

/** Where a Baton thread lives in Graph: a chat (`graphChatId`) or a team channel. */
export type TeamsGraphContext =
  | { readonly kind: "dm"; readonly graphChatId: string }
  | { readonly kind: "channel"; readonly teamId: string; readonly channelId: string };

const ADAPTIVE_CARD = "application/vnd.microsoft.card.adaptive";

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function textBlocks(card: Record<string, unknown>): Record<string, unknown>[] {
  const body = Array.isArray(card.body) ? card.body : [];
  return body.flatMap((element) => {
    const block = record(element);
    return block?.type === "TextBlock" && typeof block.text === "string" ? [block] : [];
  });
}

/**
 * The title of an Adaptive Card: the first TextBlock styled as a heading (`weight: bolder` or
 * `size: large`), else the first TextBlock; null when the value is no card or has no text.
 */
export function extractCardTitle(card: unknown): string | null {
  const object = record(card);
  if (object === undefined) return null;
  const blocks = textBlocks(object);
  const styled = blocks.find((block) => {
    const weight = typeof block.weight === "string" ? block.weight.toLowerCase() : "";
    const size = typeof block.size === "string" ? block.size.toLowerCase() : "";
    return weight === "bolder" || size === "large" || size === "extralarge";
  });
  const title = (styled ?? blocks[0])?.text;
  return typeof title === "string" ? title : null;
}

function stripHtml(html: string): string {
  // Graph sends Teams messages as HTML; history readers want the words, entities decoded.
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}

/**
 * The plain text of a Graph message: its body (HTML stripped), or for a message that is only an
 * Adaptive Card, the card's title — `[Card]` when the card has none or its JSON is unreadable.
 */
export function extractTextFromGraphMessage(message: GraphChatMessage): string {
  const content = message.body?.content ?? "";
  const text = message.body?.contentType === "html" ? stripHtml(content) : content.trim();
  if (text !== "") return text;
  const card = (message.attachments ?? []).find((item) => item.contentType === ADAPTIVE_CARD);
  if (card === undefined) return "";
  try {
    return extractCardTitle(JSON.parse(card.content ?? "")) ?? "[Card]";
  } catch {
    return "[Card]";
  }
}

/**
 * The Graph chat id of a conversation: a personal chat's `graphChatId` when the stored context
 * knows it (bot conversation ids of 1:1 chats are not Graph ids), else the conversation id itself.
 */
export function chatIdFromContext(
  context: TeamsGraphContext | undefined,
  conversationId: string,
): string {
  return context?.kind === "dm" ? context.graphChatId : conversationId;
}
