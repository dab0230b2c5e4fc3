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
// hot path: optional fused State methods (DESIGN §4.1)
export type {
  AcceptAndAcquireRequest,
  AcceptAndAcquireResult,
  FastPathState,
  ReleaseAndNextResult,
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
// hold gaps (H12): the lapse event
export type { HoldLapsedEvent, HoldLapsedHandler } from "./concurrency/hold-records.js";
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
export {
  CALLBACK_KEY_PREFIX,
  CALLBACK_TTL_MS,
  CALLBACK_VALUE_PREFIX,
  type CallbackScope,
  decodeCallbackValue,
  type StoredCallback,
} from "./runtime/callback-urls.js";
export { deriveChannelId } from "./runtime/channel-directory.js";
export {
  type AddTaskOptions,
  Plan,
  type PlanContent,
  type PlanModel,
  type PlanModelTask,
  type PlanTask,
  type PlanTaskStatus,
  type TaskUpdate,
} from "./runtime/plan.js";
export {
  isPostableObject,
  POSTABLE_OBJECT,
  type PostableObject,
  type PostedObjectContext,
} from "./runtime/postable-object.js";
export type {
  PostableSurface,
  PostContent,
  ThreadPostingSurface,
} from "./runtime/postable-surface.js";
export type { PostEphemeralOptions } from "./runtime/poster.js";
export {
  createSentMessage,
  createSentMessageFromMessage,
  type SentMessage,
  type SentMessageContext,
  type SentMessageHandle,
} from "./runtime/sent-message.js";
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
export { ChannelImpl, type ChannelOptions } from "./runtime/channel.js";
export {
  DEFAULT_THREAD_HISTORY_MAX_MESSAGES,
  DEFAULT_THREAD_HISTORY_TTL_MS,
  type ResolvedThreadHistory,
  type ThreadHistoryOptions,
} from "./runtime/chat-config-history.js";
export { clearChatSingleton, hasChatSingleton } from "./runtime/chat-singleton.js";
export { MessageHistoryCache } from "./runtime/message-history.js";
export { createReviver, type JsonReviver, reviver } from "./runtime/reviver.js";
export {
  CHANNEL_JSON_TYPE,
  MESSAGE_JSON_TYPE,
  type SerializedChannel,
  type SerializedThread,
  THREAD_JSON_TYPE,
} from "./runtime/serialization.js";
export { ThreadImpl, type ThreadOptions } from "./runtime/thread.js";
export {
  persistsThreadHistory,
  THREAD_HISTORY_KEY_PREFIX,
  ThreadHistoryCache,
} from "./runtime/thread-history.js";
export type { UserRef } from "./runtime/user-adapter.js";
export {
  DEFAULT_USER_CACHE_TTL_MS,
  USER_CACHE_KEY_PREFIX,
  userCacheKey,
} from "./runtime/user-lookup.js";

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
export type { ChatModalCloseEvent, ChatModalSubmitHandler } from "./runtime/chat-events.js";

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
  createStreamNormalizer,
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

// content: cards and modals
export {
  Actions,
  type ActionsChild,
  type ActionsElement,
  type AnyCardElement,
  Button,
  type ButtonElement,
  type ButtonOptions,
  type ButtonProps,
  type ButtonStyle,
  Card,
  type CardChild,
  type CardElement,
  type CardJSXElement,
  type CardJSXProps,
  CardLink,
  type CardOptions,
  type CardPost,
  type CardProps,
  CardText,
  type CardWidth,
  type CardWithFallback,
  Chart,
  type ChartDefinition,
  type ChartElement,
  type ChatElement,
  cardChildToFallbackText,
  cardToFallbackText,
  DateInput,
  type DateInputElement,
  type DateInputOptions,
  Divider,
  type DividerElement,
  ExternalSelect,
  type ExternalSelectElement,
  type ExternalSelectOptions,
  type FallbackTextOptions,
  Field,
  type FieldElement,
  Fields,
  type FieldsElement,
  filterModalChildren,
  fromReactElement,
  fromReactModalElement,
  Image,
  type ImageElement,
  isCardElement,
  isCardPost,
  isJSX,
  isModalElement,
  LinkButton,
  type LinkButtonElement,
  type LinkButtonOptions,
  type LinkElement,
  Modal,
  type ModalChild,
  type ModalClearResponse,
  type ModalCloseResponse,
  type ModalElement,
  type ModalErrorsResponse,
  type ModalInput,
  type ModalOptions,
  type ModalPushResponse,
  type ModalResponse,
  type ModalSubmitValues,
  type ModalUpdateResponse,
  modalInputIds,
  NumberInput,
  type NumberInputElement,
  type NumberInputOptions,
  RadioSelect,
  type RadioSelectElement,
  type RadioSelectOptions,
  type ResolvedCardPost,
  resolveCardPost,
  Section,
  type SectionElement,
  Select,
  type SelectElement,
  SelectOption,
  type SelectOptionElement,
  type SelectOptions,
  Table,
  type TableElement,
  type TableOptions,
  Text,
  type TextElement,
  TextInput,
  type TextInputElement,
  type TextInputOptions,
  type TextStyle,
  toCardElement,
  toModalElement,
  validateCardElement,
  validateModalElement,
  validateModalResponse,
} from "./content/index.js";
