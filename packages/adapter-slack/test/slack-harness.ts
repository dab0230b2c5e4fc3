import { Chat, type ChatConfig, type WebhookOptions } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { createSlackAdapter, type SlackAdapterConfig } from "../src/index.js";
import {
  createSlackWebhookRequest,
  type FakeSlackOptions,
  type SlackWebhookRequestInit,
  startFakeSlack,
} from "../src/testing/index.js";

/** Retries kept tiny so a failing call in a test fails at once. */
export const TEST_RETRY = { retries: 0 };

/**
 * A Chat with the Slack adapter against the offline fake of Slack's Web API, on the real memory
 * State and a fake clock. `deliver(json)` sends an Events API body exactly as Slack would:
 * signed now by the fake clock.
 */
export async function createSlackHarness(
  config: Partial<SlackAdapterConfig> = {},
  chatOptions: Partial<Omit<ChatConfig, "adapters" | "state">> = {},
  fakeOptions: FakeSlackOptions = {},
) {
  const fake = await startFakeSlack(fakeOptions);
  const clock = createFakeClock();
  const adapter = createSlackAdapter({
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
    retryConfig: TEST_RETRY,
    clock,
    ...config,
  });
  const state = createMemoryState({ clock });
  const chat = new Chat({
    userName: "bot",
    adapters: { slack: adapter },
    state,
    logger: "silent",
    clock,
    dispatch: "sync",
    ...chatOptions,
  });
  await chat.initialize();
  const slackWebhook = chat.webhooks.slack;
  if (slackWebhook === undefined) throw new Error("the Chat has no slack webhook");
  const webhook = (request: Request, options?: WebhookOptions) => slackWebhook(request, options);
  const tasks: Promise<unknown>[] = [];
  /** Collects detached work, so a test can wait for what runs after the answer. */
  const waitUntil = (task: Promise<unknown>) => {
    tasks.push(task);
  };

  function request(init: Omit<SlackWebhookRequestInit, "signingSecret">) {
    return createSlackWebhookRequest({
      signingSecret: fake.signingSecret,
      nowMs: clock.now(),
      ...init,
    });
  }

  let eventCount = 0;
  /** An `event_callback` envelope around `event`, with a fresh event id. */
  function envelope(event: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    eventCount += 1;
    return {
      token: "verification-token",
      team_id: fake.teamId,
      api_app_id: "A0APP00001",
      type: "event_callback",
      event_id: `Ev${String(eventCount).padStart(8, "0")}`,
      event_time: Math.floor(clock.now() / 1_000),
      event,
      ...extra,
    };
  }

  return {
    fake,
    adapter,
    chat,
    state,
    clock,
    webhook,
    request,
    envelope,
    waitUntil,
    /** Waits for every detached task handed to `waitUntil` so far. */
    settle: async () => {
      while (tasks.length > 0) await Promise.all(tasks.splice(0));
    },
    deliver: (json: unknown, headers?: Record<string, string>) =>
      webhook(request({ json, ...(headers ? { headers } : {}) }), { waitUntil }),
    deliverForm: (form: Record<string, string>) => webhook(request({ form }), { waitUntil }),
    close: async () => {
      await chat.shutdown();
      await fake.close();
    },
  };
}

export type SlackHarness = Awaited<ReturnType<typeof createSlackHarness>>;
