export type {
  Adapter,
  ChatHost,
  DeliveryResult,
  FetchMessagesOptions,
  FetchMessagesResult,
  LockScope,
  PostableMessage,
  ProcessOptions,
  ReceiveResult,
  SentMessage,
  WebhookOptions,
} from "./adapter.js";
export { ConsoleLogger, type Logger, type LogLevel, silentLogger } from "./logger.js";
export {
  DISPATCH_OUTCOMES,
  type DispatchAttributes,
  type DispatchOutcome,
  type DispatchSpan,
  type Observer,
} from "./observer.js";
export type {
  AppendToListOptions,
  Claim,
  ClaimState,
  EnqueueOptions,
  EnqueueResult,
  KeyValueState,
  ListState,
  Lock,
  LockInfo,
  LockState,
  QueueEntry,
  QueueFullPolicy,
  QueueState,
  StateAdapter,
  StateLifecycle,
  SubscriptionState,
} from "./state.js";
