export {
  createFakeClock,
  FAKE_CLOCK_START_MS,
  FakeClock,
  type FakeClockOptions,
} from "./fake-clock.js";
export { type BatonMatchers, batonMatchers } from "./matchers.js";
export { createMockAdapter, MockAdapter } from "./mock-adapter.js";
export type {
  MockAdapterOptions,
  MockDeliverOptions,
  MockPost,
} from "./mock-adapter-options.js";
export { MOCK_METHODS, type MockCall, type MockMethod } from "./mock-call.js";
export {
  MOCK_DEFAULT_CAPABILITIES,
  resolveMockCapabilities,
} from "./mock-capabilities.js";
export type {
  MockActionInput,
  MockInteractionOptions,
  MockModals,
  MockOpenedModal,
  MockSlashCommandInput,
} from "./mock-modals.js";
export type { MockScheduledPost } from "./mock-scheduling.js";
export {
  decodeMockThreadId,
  encodeMockThreadId,
  type MockThreadData,
} from "./mock-thread-id.js";
export { MOCK_DEFAULT_USER_IDS, mockMatchesUserId } from "./mock-users.js";
export {
  createMockWebhookRequest,
  MOCK_WEBHOOK_URL,
  type MockWebhookBody,
  type MockWebhookMessage,
  type MockWebhookResponseBody,
} from "./mock-webhook.js";
export { DEFAULT_MOCK_USER_ID, type MockRawMessage } from "./parse-mock-message.js";
export {
  createMentionMessage,
  createTestAuthor,
  createTestMessage,
  resetTestMessageIds,
  TEST_MESSAGE_DATE_MS,
  TEST_THREAD_ID,
  type TestMessageOverrides,
} from "./test-message.js";
export { createTestState, type TestStateOptions } from "./test-state.js";
