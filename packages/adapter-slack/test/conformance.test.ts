import { describeAdapter } from "@baton/conformance";
import type { Adapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createSlackAdapter, type SlackAdapter, type SlackThreadData } from "../src/index.js";
import { createSlackWebhookRequest, type FakeSlack, startFakeSlack } from "../src/testing/index.js";

const THREAD_PARENTS: Array<[string, string]> = [
  ["C0CONF0001", "1699999999.000100"],
  ["G0CONF0003", "1699999999.000200"],
];

const fakes = new WeakMap<Adapter<SlackThreadData>, FakeSlack>();
let sequence = 0;

/** Delivers a signed Events API message from `user` into the thread, as Slack would. */
async function deliver(
  adapter: Adapter<SlackThreadData>,
  threadId: string,
  user: string,
  text: string,
) {
  const fake = fakes.get(adapter);
  if (fake === undefined) throw new Error("no fake Slack for this adapter");
  const { channel, threadTs } = adapter.decodeThreadId(threadId);
  sequence += 1;
  const ts = `1700000${String(sequence).padStart(3, "0")}.000100`;
  const fromBot = user === fake.botUserId;
  const response = await adapter.handleWebhook(
    createSlackWebhookRequest({
      signingSecret: fake.signingSecret,
      json: {
        type: "event_callback",
        team_id: fake.teamId,
        event_id: `EvConf${sequence}`,
        event: {
          // In channels Slack marks a mention of the bot with the event type; the text is kept
          // exactly as typed so the suite can compare it.
          type: channel.startsWith("D") || fromBot ? "message" : "app_mention",
          user,
          ...(fromBot ? { bot_id: fake.botId } : {}),
          channel,
          ...(channel.startsWith("D") ? { channel_type: "im" } : {}),
          text,
          ts,
          ...(threadTs ? { thread_ts: threadTs } : {}),
        },
      },
    }),
  );
  if (!response.ok) {
    throw new Error(`the webhook answered ${response.status}: ${await response.text()}`);
  }
  return response;
}

describeAdapter<SlackThreadData>("slack", {
  create: async (): Promise<SlackAdapter> => {
    const fake = await startFakeSlack();
    const adapter = createSlackAdapter({
      botToken: fake.botToken,
      signingSecret: fake.signingSecret,
      apiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
    });
    fakes.set(adapter, fake);
    // The sample threads exist in the workspace: their parent messages are in the fake.
    for (const [channel, ts] of THREAD_PARENTS) {
      fake.store.add({ channel, ts, text: "thread parent", user: "U0HUMAN001", team: fake.teamId });
    }
    return adapter;
  },
  createState: () => createMemoryState(),
  threads: [
    { channel: "C0CONF0001", threadTs: "1699999999.000100" },
    { channel: "D0CONF0002", threadTs: "" },
    { channel: "G0CONF0003", threadTs: "1699999999.000200" },
  ],
  deliverUserMessage: (adapter, threadId, text) => deliver(adapter, threadId, "U0HUMAN001", text),
  deliverSelfMessage: (adapter, threadId, text) => {
    const fake = fakes.get(adapter);
    return deliver(adapter, threadId, fake?.botUserId ?? "", text);
  },
  dispose: async (adapter) => {
    await fakes.get(adapter)?.close();
  },
});
