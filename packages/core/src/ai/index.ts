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
export { fetchChannelMessages, getChannelInfo, listThreads } from "./channel-tools.js";
export type { ChatBinding, ToolOptions, ToolOverrides } from "./chat-binding.js";
export {
  type ApprovalConfig,
  type ChatApprovalToolName,
  type ChatToolName,
  type ChatToolPreset,
  type ChatTools,
  type ChatToolsOptions,
  type ChatWriteToolName,
  createChatTools,
} from "./create-chat-tools.js";
export type { PostableInput } from "./input-schema.js";
export { renderLinkForPrompt } from "./link-preview.js";
export {
  deleteMessage,
  editMessage,
  postChannelMessage,
  postMessage,
  sendDirectMessage,
} from "./message-tools.js";
export type { ProjectedMessage } from "./project-message.js";
export { addReaction, removeReaction } from "./reaction-tools.js";
export type { ReadScope, ScopeGuard } from "./read-scope.js";
export {
  fetchMessages,
  fetchThread,
  getThreadParticipants,
  startTyping,
  subscribeThread,
  unsubscribeThread,
} from "./thread-tools.js";
export { type AiSourceMessage, type ToAiMessagesOptions, toAiMessages } from "./to-ai-messages.js";
export { getUser } from "./user-tools.js";
