/**
 * The messages {@link toAiMessages} produces. Their shapes are structurally the AI SDK's own
 * (`TextPart`, `ImagePart`, `FilePart`, `UserModelMessage`, `AssistantModelMessage`), so an
 * `AiMessage[]` is assignable to `ModelMessage[]` without this module importing `ai` at run time.
 * The names are upstream's (`chat/ai`).
 */

/** The AI SDK's `DataContent`: base64 text, bytes, or a buffer. */
export type AiDataContent = string | Uint8Array | ArrayBuffer;

/** A text part of a user message. */
export interface AiTextPart {
  type: "text";
  text: string;
}

/** An image part; `image` is inline data or a URL. */
export interface AiImagePart {
  type: "image";
  image: AiDataContent | URL;
  mediaType?: string;
}

/** A file part; `toAiMessages` also sends images this way (as upstream does), with a media type. */
export interface AiFilePart {
  type: "file";
  data: AiDataContent | URL;
  mediaType: string;
  filename?: string;
}

/** Any part of a user message. */
export type AiMessagePart = AiTextPart | AiImagePart | AiFilePart;

/** A message from anyone but the bot: plain text, or parts when attachments came along. */
export interface AiUserMessage {
  role: "user";
  content: string | AiMessagePart[];
}

/** A message the bot itself sent: always plain text. */
export interface AiAssistantMessage {
  role: "assistant";
  content: string;
}

/** One message of the conversation, as the model sees it. */
export type AiMessage = AiUserMessage | AiAssistantMessage;
