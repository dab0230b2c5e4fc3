/** Shared helpers of the Slack user-name tests (inbound labels, look-ups, outbound mentions). */
import { Chat, type Message, type WebhookOptions } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { afterEach } from "vitest";
import { createSlackAdapter } from "../src/index.js";
import { threadParticipantsKey, userByNameKey } from "../src/name-index.js";
import {
  createSlackWebhookRequest,
  type FakeSlack,
  type FakeSlackUser,
  startFakeSlack,
} from "../src/testing/index.js";
import { createSlackHarness, type SlackHarness, TEST_RETRY } from "./slack-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A Slack harness (real memory State, fake clock, the fake Slack) closed after the test. */
export async function harness(...args: Parameters<typeof createSlackHarness>) {
  const created = await createSlackHarness(...args);
  closers.push(created.close);
  return created;
}

let tsCount = 0;
/** A fresh message `ts`, growing like Slack's. */
export function nextTs(): string {
  tsCount += 1;
  return `1700000000.${String(tsCount).padStart(6, "0")}`;
}

/** A `message` event in `channel` (a fresh `ts` unless given). */
export function messageEvent(fields: Record<string, unknown>): Record<string, unknown> {
  return { type: "message", channel: "C456", ts: nextTs(), ...fields };
}

/** What a handler saw of one message, and how many `users.info` calls the fake had by then. */
export interface Seen {
  readonly text: string;
  readonly author: Message["author"];
  readonly usersInfoCallsBefore: number;
}

/** Records every message the Chat dispatches (any route). */
export function recordMessages(h: { chat: Chat; fake: FakeSlack }): Seen[] {
  const seen: Seen[] = [];
  const push = (_thread: unknown, message: Message) => {
    seen.push({
      text: message.text,
      author: message.author,
      usersInfoCallsBefore: h.fake.callsOf("users.info").length,
    });
  };
  h.chat.onNewMention(push);
  h.chat.onDirectMessage(push);
  h.chat.onSubscribedMessage(push);
  h.chat.onNewMessage(/[\s\S]*/, push);
  return seen;
}

/** Makes `user` known to the fake and looks it up once, so the reverse index holds its names. */
export async function knownUser(h: SlackHarness, user: FakeSlackUser): Promise<void> {
  h.fake.addUser(user);
  await h.adapter.getUser(user.id);
}

/** The `users.info` calls the fake had, as the ids asked for. */
export function usersInfoIds(fake: FakeSlack): unknown[] {
  return fake.callsOf("users.info").map((call) => call.args.user);
}

/** The text of the last `chat.postMessage` the fake received. */
export function postedText(fake: FakeSlack): unknown {
  return fake.callsOf("chat.postMessage").at(-1)?.args.text;
}

/** The users the reverse index holds under `name` in the fake's workspace, straight from the State. */
export async function indexedUnder(h: SlackHarness, name: string): Promise<unknown> {
  return h.state.get(userByNameKey(h.fake.teamId, name));
}

/** The participants of `threadId`, straight from the State. */
export async function participantsOf(h: SlackHarness, threadId: string): Promise<unknown> {
  return h.state.get(threadParticipantsKey(threadId));
}

/**
 * Two instances of one bot: two Chats, each with its own Slack adapter (so its own in-process
 * name cache), sharing one memory State, one fake clock and one fake Slack.
 */
export async function twoInstances() {
  const fake = await startFakeSlack();
  const clock = createFakeClock();
  const state = createMemoryState({ clock });
  const tasks: Promise<unknown>[] = [];
  const waitUntil = (task: Promise<unknown>) => {
    tasks.push(task);
  };
  async function instance(label: string) {
    const adapter = createSlackAdapter({
      botToken: fake.botToken,
      signingSecret: fake.signingSecret,
      apiUrl: fake.apiUrl,
      retryConfig: TEST_RETRY,
      clock,
    });
    const chat = new Chat({
      userName: "bot",
      adapters: { slack: adapter },
      state,
      logger: "silent",
      clock,
      dispatch: "sync",
    });
    await chat.initialize();
    const webhook = chat.webhooks.slack;
    if (webhook === undefined) throw new Error("the Chat has no slack webhook");
    const seen = recordMessages({ chat, fake });
    let eventCount = 0;
    const deliver = (event: Record<string, unknown>, options: WebhookOptions = { waitUntil }) => {
      eventCount += 1;
      const json = {
        type: "event_callback",
        team_id: fake.teamId,
        event_id: `Ev${label}${String(eventCount).padStart(8, "0")}`,
        event,
      };
      const request = createSlackWebhookRequest({
        signingSecret: fake.signingSecret,
        nowMs: clock.now(),
        json,
      });
      return webhook(request, options);
    };
    return { adapter, chat, seen, deliver };
  }
  const a = await instance("A");
  const b = await instance("B");
  closers.push(async () => {
    await a.chat.shutdown();
    await b.chat.shutdown();
    await fake.close();
  });
  return {
    fake,
    clock,
    state,
    a,
    b,
    /**
     * Waits for the work handed to `waitUntil`. An instance that finds another one's look-up in
     * progress polls the State on the fake clock, so the clock moves — but only while `busy()`
     * says no platform call is in flight, so no lease can lapse during one.
     */
    settle: async (busy: () => Promise<boolean> = async () => false) => {
      while (tasks.length > 0) {
        let done = false;
        const all = Promise.all(tasks.splice(0)).then(() => {
          done = true;
        });
        while (!done) {
          if (clock.pendingTimers > 0 && !(await busy())) await clock.advance(50);
          else await new Promise((resolve) => setTimeout(resolve, 1));
        }
        await all;
      }
    },
  };
}
