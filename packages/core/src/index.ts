export {
  type Clock,
  type ClockTimer,
  sleep,
  systemClock,
} from "./clock/index.js";
export { LeaseKeeper } from "./concurrency/lease-keeper.js";
export type { LeaseKeeperOptions } from "./concurrency/lease-keeper-options.js";
export {
  type Batch,
  type BatchOutcome,
  type ConcurrencySettings,
  type DeliveryDisposition,
  STRATEGY_NAMES,
  type Strategy,
  type StrategyName,
} from "./concurrency/strategy.js";
export {
  type Adapter,
  type AppendToListOptions,
  type ChatHost,
  type Claim,
  type ClaimState,
  ConsoleLogger,
  type DeliveryResult,
  DISPATCH_OUTCOMES,
  type DispatchAttributes,
  type DispatchEvent,
  type DispatchOutcome,
  type DispatchSpan,
  type EnqueueOptions,
  type EnqueueResult,
  type FetchMessagesOptions,
  type FetchMessagesResult,
  isLogger,
  type KeyValueState,
  type ListState,
  type Lock,
  type LockInfo,
  type LockScope,
  type LockState,
  type Logger,
  type LogLevel,
  type Observer,
  type PostableMessage,
  type ProcessOptions,
  type QueueEntry,
  type QueueFullPolicy,
  type QueueState,
  type ReceiveResult,
  type StateAdapter,
  type StateLifecycle,
  type SubscriptionState,
  silentLogger,
  type WebhookOptions,
} from "./contracts/index.js";
export {
  assertEnqueueOptions,
  assertOptionalTtlMs,
  assertPlainObject,
  assertPositiveInteger,
  assertStateKey,
  assertTtlMs,
} from "./contracts/state-arguments.js";
export {
  AdmissionBound,
  type AdmissionLimits,
  type AdmissionScope,
  chatOnceKey,
  type ExclusiveAttempt,
  type GateScope,
  type HoldHandle,
  type HoldOptions,
  type OnceOptions,
  type OnceResult,
  type OnceRun,
  type OnceWork,
  type Permit,
  parseHoldHandle,
  type TryExclusiveOptions,
  TurnGate,
  type TurnOptions,
  threadOnceKey,
} from "./coordination/index.js";
export type {
  ActionHandlerEvent,
  MessageDeletedHandlerEvent,
  MessageHandler,
  ReactionHandlerEvent,
  SlashCommandHandlerEvent,
} from "./dispatch/handler-registry.js";
export {
  AdapterError,
  AdmissionRejectedError,
  BATON_ERROR_CODES,
  BatonError,
  type BatonErrorCode,
  type BatonErrorOptions,
  ConfigError,
  DetachTimeoutError,
  docsUrlFor,
  isBatonError,
  LockError,
  LockLostError,
  NotImplementedError,
  RateLimitError,
  ShutdownError,
  StateError,
  type StateFailure,
  ValidationError,
} from "./errors/index.js";
export {
  type ActionEvent,
  type Attachment,
  type AttachmentType,
  type Author,
  type JsonValue,
  Message,
  type MessageContext,
  type MessageDeletedEvent,
  type MessageInit,
  type MessageMetadata,
  type ReactionEvent,
  type SerializedAttachment,
  type SerializedMessage,
  type SlashCommandEvent,
  serializeAttachment,
} from "./model/index.js";
export {
  type BotIdentity,
  detectMention,
  matchesActionId,
  matchesCommand,
  matchesEmoji,
  normalizeCommand,
} from "./routing/index.js";
export type { Channel } from "./runtime/channel.js";
export { Chat, type ShutdownOptions } from "./runtime/chat.js";
export {
  type ChatConfig,
  type ConcurrencyOptions,
  DEFAULT_CONCURRENCY,
  type DispatchMode,
  type LockConflictOption,
  type LockScopeContext,
  type LockScopeOption,
} from "./runtime/chat-config.js";
export type { ReleaseHoldOptions } from "./runtime/chat-coordination.js";
export { describeValue } from "./runtime/config-problems.js";
export { adaptLogger, type PinoLikeLogger } from "./runtime/logger-adapter.js";
export type { SetStateOptions } from "./runtime/scoped-state.js";
// thread surface
export {
  ADAPTER_FEATURES,
  type AdapterCapabilities,
  type AdapterFeature,
  type AdapterPostableMessage,
  type AdapterSentMessage,
  type CardElementLike,
  type ChannelInfo,
  type ChannelVisibility,
  capabilitiesOf,
  defineCapabilities,
  type EphemeralMessage,
  type FetchDirection,
  type FileUpload,
  type ListThreadsOptions,
  type ListThreadsResult,
  NO_CAPABILITIES,
  type PostableAst,
  type PostableCard,
  type PostableMarkdown,
  type PostableRaw,
  type PostableStream,
  type RawMessage,
  type ScheduledMessage,
  type ScheduleOptions,
  type StreamingSupport,
  type StreamOptions,
  type ThreadInfo,
  type ThreadSummary,
  type UserInfo,
} from "./contracts/index.js";
export { NotSupportedError } from "./errors/index.js";
export type { SentMessage, SentMessageHandle } from "./runtime/sent-message.js";
export type { Thread } from "./runtime/thread.js";
export { retryAfterSeconds, webhookErrorResponse } from "./runtime/webhook-response.js";
export { adapterNameOf, lockKeyFor } from "./thread-id/index.js";
// history, people, serialization

export { type LinkPreview, type SerializedLinkPreview } from "./model/link-preview.js";
export {
  type MessageSubject,
  type SubjectSource,
  type SubjectSourceRef,
  setMessageAdapter,
} from "./model/message-subject.js";
export { WORKFLOW_DESERIALIZE, WORKFLOW_SERIALIZE } from "./model/workflow-serde.js";

// interactions: modals, dynamic selects, openModal
export type { InteractionOptions } from "./contracts/adapter.js";
export type {
  ModalCloseHandlerEvent,
  ModalOrigin,
  ModalSubmitHandler,
  ModalSubmitHandlerEvent,
  OpenModal,
  OptionsLoadHandler,
  OptionsLoadHandlerEvent,
} from "./dispatch/handler-registry.js";
export { MODAL_CONTEXT_TTL_MS } from "./dispatch/modal-context.js";
export type { ModalCloseEvent, ModalSubmitEvent, OptionsLoadEvent } from "./model/events.js";
export type { OptionsLoadResult, SelectOptionGroup } from "./model/options-load-result.js";
export type { ChatModalCloseEvent, ChatModalSubmitHandler } from "./runtime/event-hooks.js";

// content: markdown and emoji
export type { Content, Nodes, PhrasingContent, Root, RootContent } from "mdast";
export {
  type AstVisitor,
  type BaseEmojiHelper,
  BaseFormatConverter,
  blockquote,
  type CustomEmojiMap,
  codeBlock,
  convertEmojiPlaceholders,
  createEmoji,
  DEFAULT_EMOJI_MAP,
  defaultEmojiResolver,
  type EmojiFormats,
  type EmojiMapConfig,
  type EmojiPlatform,
  EmojiResolver,
  type EmojiValue,
  type ExtendedEmojiHelper,
  emoji,
  emphasis,
  type FormatConverter,
  getEmoji,
  getNodeChildren,
  getNodeValue,
  inlineCode,
  isBlockquoteNode,
  isCodeNode,
  isDeleteNode,
  isEmphasisNode,
  isInlineCodeNode,
  isLinkNode,
  isListItemNode,
  isListNode,
  isParagraphNode,
  isStrongNode,
  isTableCellNode,
  isTableNode,
  isTableRowNode,
  isTextNode,
  link,
  type MarkdownConverter,
  markdownToPlainText,
  type NodeRenderer,
  type NodeRenderers,
  PLAIN_TEXT_RENDERERS,
  PlainTextConverter,
  paragraph,
  parseMarkdown,
  type RenderablePostable,
  type RenderContext,
  renderAst,
  root,
  strikethrough,
  stringifyMarkdown,
  strong,
  tableElementToAscii,
  tableToAscii,
  text,
  toPlainText,
  WELL_KNOWN_EMOJI,
  type WellKnownEmoji,
  walkAst,
} from "./content/index.js";

// streaming
export {
  accumulateStream,
  chunkText,
  closeOpenMarkdown,
  fromFullStream,
  isMarkdownClosed,
  isStreamChunk,
  type MarkdownTextChunk,
  type PlanUpdateChunk,
  STEP_SEPARATOR,
  STREAM_CHUNK_TYPES,
  type StreamChunk,
  type StreamingMarkdownOptions,
  StreamingMarkdownRenderer,
  type TaskUpdateChunk,
} from "./content/index.js";
export {
  isStreamInput,
  type StreamInput,
  StreamingPlan,
  StreamMessage,
  type StreamMessageOptions,
} from "./runtime/stream-message.js";
export {
  DEFAULT_STREAMING_PLACEHOLDER_TEXT,
  DEFAULT_STREAMING_UPDATE_INTERVAL_MS,
  STREAM_STOPPED_MARKER,
  type StreamingSettings,
} from "./runtime/stream-post.js";
