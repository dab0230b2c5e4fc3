import { createSlackAdapter } from "@baton/adapter-slack";
import {
  createSlackWebhookRequest,
  type FakeSlack,
  startFakeSlack,
} from "@baton/adapter-slack/testing";
import { Chat } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createSlackAdapter as createUpstreamSlackAdapter } from "@chat-adapter/slack";
import { createMemoryState as createUpstreamMemoryState } from "@chat-adapter/state-memory";
import {
  Chat as UpstreamChat,
  type Logger as UpstreamLogger,
  type StateAdapter as UpstreamStateAdapter,
} from "chat";
import type { Implementation } from "./bench-bot.js";
import { quantile } from "./stats.js";

/** What one Slack webhook measurement sends. */
export interface SlackWebhookPlan {
  /** Signed `app_mention` events sent at once, each starting its own thread. */
  readonly mentions: number;
  /** How long each mention handler works before it returns. */
  readonly handlerMs: number;
  /** Mentions sent and finished before the measured burst, so lazy loading and JIT are done. */
  readonly warmupMentions?: number;
  /** How long to wait for every handler to finish before the run counts as failed. */
  readonly settleTimeoutMs?: number;
  /**
   * Brackets the measured burst (after warm-up and signing, until the last answer), for a
   * profiler that should see only the webhook path: awaited, outside the measured latencies.
   */
  readonly aroundBurst?: {
    readonly before: () => Promise<void>;
    readonly after: () => Promise<void>;
  };
}

/** One implementation's answer to a burst of signed Slack mentions. */
export interface SlackWebhookMeasurement {
  readonly implementation: Implementation;
  readonly mentions: number;
  /** Webhook answers with status 200. */
  readonly answered: number;
  /** Handler runs that finished. */
  readonly handled: number;
  /** Time from handing a request to the webhook handler to its `Response`, per request. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** `users.info` calls the fake Slack received during the run. */
  readonly usersInfoCalls: number;
  /** Every Web API call the fake received during the measured burst, by method. */
  readonly slackCalls: Readonly<Record<string, number>>;
  /** Distinct users who sent the mentions (always one: the worst case for an uncached lookup). */
  readonly users: number;
}

const CHANNEL = "C0BENCH";
const SENDER = "U0SENDER";
/** The warm-up's sender: another user, so the measured sender's lookup starts cold. */
const WARMUP_SENDER = "U0WARMUP";
const BASE_TS_SECONDS = 1_767_225_600;

/**
 * Sends `plan.mentions` signed Events API `app_mention` requests from one user, each on its own
 * thread, to a fresh bot of `implementation` on memory State, all at once, and measures how
 * long each webhook takes to answer and how often the adapter asked Slack who the user is.
 * Both implementations talk to the same offline fake Slack over real HTTP, with the bot's user
 * id configured so neither spends a call on `auth.test`. The handler sleeps `handlerMs`: the
 * answer must not wait for it.
 */
export async function measureSlackWebhook(
  implementation: Implementation,
  plan: SlackWebhookPlan,
): Promise<SlackWebhookMeasurement> {
  const fake = await startFakeSlack();
  fake.addUser({ id: SENDER, name: "sender", realName: "Bench Sender" });
  fake.addUser({ id: WARMUP_SENDER, name: "warmup" });
  // Slack knows the bot as a user too: a lookup of the mentioned bot must not fail.
  fake.addUser({ id: fake.botUserId, name: "bot", isBot: true });
  const bot = await startSlackBot(implementation, fake, plan.handlerMs);
  try {
    const warmup = plan.warmupMentions ?? 20;
    const settleTimeoutMs = plan.settleTimeoutMs ?? 60_000;
    for (let index = 0; index < warmup; index += 1) {
      await bot.handle(mentionRequest(fake, plan.mentions + index, WARMUP_SENDER));
    }
    await bot.settled(warmup, settleTimeoutMs);
    // Signing is the platform's work, not the bot's: done before the clock starts.
    const requests = Array.from({ length: plan.mentions }, (_, index) =>
      mentionRequest(fake, index),
    );
    fake.reset();
    bot.resetCount();
    const latenciesMs: number[] = [];
    let answered = 0;
    await plan.aroundBurst?.before();
    await Promise.all(
      requests.map(async (request) => {
        const startedAt = performance.now();
        const response = await bot.handle(request);
        latenciesMs.push(performance.now() - startedAt);
        if (response.status === 200) answered += 1;
      }),
    );
    await plan.aroundBurst?.after();
    await bot.settled(plan.mentions, settleTimeoutMs);
    return {
      implementation,
      mentions: plan.mentions,
      answered,
      handled: bot.handled(),
      p50Ms: quantile(latenciesMs, 0.5) ?? Number.NaN,
      p99Ms: quantile(latenciesMs, 0.99) ?? Number.NaN,
      maxMs: quantile(latenciesMs, 1) ?? Number.NaN,
      usersInfoCalls: fake.callsOf("users.info").length,
      slackCalls: countByMethod(fake),
      users: 1,
    };
  } finally {
    await bot.close();
    await fake.close();
  }
}

function countByMethod(fake: FakeSlack): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of fake.calls) counts[call.method] = (counts[call.method] ?? 0) + 1;
  return counts;
}

function mentionRequest(fake: FakeSlack, index: number, user = SENDER): Request {
  const ts = `${BASE_TS_SECONDS + index}.000100`;
  return createSlackWebhookRequest({
    signingSecret: fake.signingSecret,
    json: {
      type: "event_callback",
      team_id: fake.teamId,
      api_app_id: "A0BENCH",
      event_id: `Ev${index}`,
      event_time: BASE_TS_SECONDS + index,
      event: {
        type: "app_mention",
        channel: CHANNEL,
        user,
        text: `<@${fake.botUserId}> question ${index}`,
        ts,
        event_ts: ts,
      },
    },
  });
}

/** Upstream's adapter logs through its own logger; the bench must not time console output. */
const SILENT: UpstreamLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => SILENT,
};

interface SlackBot {
  handle(request: Request): Promise<Response>;
  handled(): number;
  resetCount(): void;
  /** Resolves once `expected` handlers finished; rejects after `timeoutMs`. */
  settled(expected: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

async function startSlackBot(
  implementation: Implementation,
  fake: FakeSlack,
  handlerMs: number,
): Promise<SlackBot> {
  let handled = 0;
  const handler = async () => {
    await new Promise((resolve) => setTimeout(resolve, handlerMs));
    handled += 1;
  };
  const credentials = {
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
    botUserId: fake.botUserId,
  };
  const settled = async (expected: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (handled < expected) {
      if (Date.now() > deadline) {
        throw new Error(`slack-webhook: ${handled} of ${expected} handlers finished in time`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  if (implementation === "baton") {
    const chat = new Chat({
      userName: "bot",
      adapters: { slack: createSlackAdapter(credentials) },
      state: createMemoryState(),
      logger: "silent",
    });
    chat.onNewMention(handler);
    await chat.initialize();
    return {
      handle: (request) => chat.webhooks.slack?.(request) as Promise<Response>,
      handled: () => handled,
      resetCount: () => {
        handled = 0;
      },
      settled,
      close: () => chat.shutdown({ timeoutMs: 5_000 }),
    };
  }
  const chat = new UpstreamChat({
    userName: "bot",
    adapters: { slack: createUpstreamSlackAdapter({ ...credentials, logger: SILENT }) },
    // state-memory 4.41.0 is typed against chat 4.41.0; the runtime shapes are the same.
    state: createUpstreamMemoryState() as unknown as UpstreamStateAdapter,
    logger: "silent",
  });
  chat.onNewMention(handler);
  await chat.initialize();
  const background: Promise<unknown>[] = [];
  return {
    handle: (request) =>
      chat.webhooks.slack(request, { waitUntil: (task) => void background.push(task) }),
    handled: () => handled,
    resetCount: () => {
      handled = 0;
    },
    async settled(expected, timeoutMs) {
      await settled(expected, timeoutMs);
      await Promise.allSettled(background);
    },
    close: () => chat.shutdown(),
  };
}
