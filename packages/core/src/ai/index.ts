// The `@baton/core/ai` entry: AI SDK helpers. Only this subpath loads `ai` (an optional peer);
// `@baton/core` itself never imports this folder.
export type {
  AiAssistantMessage,
  AiDataContent,
  AiFilePart,
  AiImagePart,
  AiMessage,
  AiMessagePart,
  AiTextPart,
  AiUserMessage,
} from "./ai-message.js";
export { renderLinkForPrompt } from "./link-preview.js";
export { type AiSourceMessage, type ToAiMessagesOptions, toAiMessages } from "./to-ai-messages.js";
