import { describe, expect, it } from "vitest";
import * as testing from "../src/index.js";

describe("@baton/testing public API", () => {
  it("exports exactly the documented runtime members", () => {
    expect(Object.keys(testing).sort()).toEqual(
      [
        "DEFAULT_MOCK_USER_ID",
        "FAKE_CLOCK_START_MS",
        "FakeClock",
        "MOCK_DEFAULT_CAPABILITIES",
        "MOCK_DEFAULT_USER_IDS",
        "MOCK_METHODS",
        "MOCK_WEBHOOK_URL",
        "MockAdapter",
        "TEST_MESSAGE_DATE_MS",
        "TEST_THREAD_ID",
        "batonMatchers",
        "createFakeClock",
        "createMentionMessage",
        "createMockAdapter",
        "createMockWebhookRequest",
        "createTestAuthor",
        "createTestMessage",
        "createTestState",
        "decodeMockThreadId",
        "encodeMockThreadId",
        "mockMatchesUserId",
        "resetTestMessageIds",
        "resolveMockCapabilities",
      ].sort(),
    );
  });

  it("uses a default test thread that belongs to the default mock adapter", () => {
    const adapter = testing.createMockAdapter();
    expect(adapter.decodeThreadId(testing.TEST_THREAD_ID)).toEqual({
      channel: "C123",
      thread: "T1",
    });
    expect(testing.createTestMessage().author.userId).toBe(testing.DEFAULT_MOCK_USER_ID);
  });
});
