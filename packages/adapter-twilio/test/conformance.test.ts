import { describeAdapter } from "@baton/conformance";
import type { Adapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createTwilioAdapter, type TwilioAdapter, type TwilioThreadData } from "../src/index.js";
import {
  createTwilioWebhookRequest,
  type FakeTwilio,
  startFakeTwilio,
} from "../src/testing/index.js";
import { BOT_NUMBER, WEBHOOK_URL } from "./twilio-harness.js";

const fakes = new WeakMap<Adapter<TwilioThreadData>, FakeTwilio>();
let sequence = 0;

/** Delivers a signed inbound webhook from `from` to `to`, as Twilio would. */
async function deliver(adapter: Adapter<TwilioThreadData>, from: string, to: string, text: string) {
  const fake = fakes.get(adapter);
  if (fake === undefined) throw new Error("no fake Twilio for this adapter");
  sequence += 1;
  const response = await adapter.handleWebhook(
    createTwilioWebhookRequest({
      url: WEBHOOK_URL,
      authToken: fake.authToken,
      params: {
        MessageSid: `SM${String(sequence).padStart(32, "0")}`,
        From: from,
        To: to,
        Body: text,
        NumMedia: "0",
      },
    }),
  );
  if (!response.ok)
    throw new Error(`the webhook answered ${response.status}: ${await response.text()}`);
  return response;
}

describeAdapter<TwilioThreadData>("twilio", {
  create: async (): Promise<TwilioAdapter> => {
    const fake = await startFakeTwilio();
    const adapter = createTwilioAdapter({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiUrl: fake.url,
      phoneNumber: BOT_NUMBER,
      webhookUrl: WEBHOOK_URL,
    });
    fakes.set(adapter, fake);
    return adapter;
  },
  createState: () => createMemoryState(),
  threads: [
    { sender: BOT_NUMBER, recipient: "+15550000002" },
    { sender: "whatsapp:+15550000001", recipient: "whatsapp:+447700900123" },
    { sender: "MG0123456789abcdef0123456789abcdef", recipient: "+15550000003" },
  ],
  deliverUserMessage: (adapter, threadId, text) => {
    const { sender, recipient } = adapter.decodeThreadId(threadId);
    return deliver(adapter, recipient, sender, text);
  },
  // Twilio sends no webhook for the bot's own posts; a message from the bot's own number (a
  // number shared with another system) is how one reaches the adapter, and it must be ignored.
  deliverSelfMessage: (adapter, threadId, text) => {
    const { recipient } = adapter.decodeThreadId(threadId);
    return deliver(adapter, BOT_NUMBER, recipient, text);
  },
  dispose: async (adapter) => {
    await fakes.get(adapter)?.close();
  },
});
