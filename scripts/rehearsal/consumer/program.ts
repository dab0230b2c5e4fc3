// A user's program with three Baton packages installed from a registry: a Twilio bot on Redis,
// answering one signed SMS against the adapter's offline fake. Exits non-zero on any surprise.
import { createTwilioAdapter } from "@baton/adapter-twilio";
import { createTwilioWebhookRequest, startFakeTwilio } from "@baton/adapter-twilio/testing";
import { Chat, type Message, type Thread } from "@baton/core";
import { createRedisState } from "@baton/state-redis";

const fake = await startFakeTwilio();
const webhookUrl = "https://bot.example.com/api/twilio";
const twilio = createTwilioAdapter({
  accountSid: fake.accountSid,
  authToken: fake.authToken,
  apiUrl: fake.url,
  phoneNumber: "+15550000001",
  webhookUrl,
});
const chat = new Chat({
  userName: "bot",
  adapters: { twilio },
  state: createRedisState({
    url: process.env.BATON_REDIS_URL ?? "redis://127.0.0.1:6379",
    keyPrefix: `rehearsal-${process.pid}-${Date.now()}`,
  }),
  dispatch: "sync",
  logger: "silent",
});
chat.onDirectMessage(async (thread: Thread, message: Message) => {
  await thread.post(`echo: ${message.text}`);
});

const webhook = chat.webhooks.twilio;
if (webhook === undefined) throw new Error("no twilio webhook");
const response = await webhook(
  createTwilioWebhookRequest({
    url: webhookUrl,
    authToken: fake.authToken,
    params: { MessageSid: "SM1", From: "+15550000002", To: "+15550000001", Body: "hello" },
  }),
);
const bodies = fake.bodiesTo("+15550000002");
await chat.shutdown();
await fake.close();
if (response.status !== 200) throw new Error(`the webhook answered ${response.status}`);
if (JSON.stringify(bodies) !== JSON.stringify(["echo: hello"])) {
  throw new Error(`the bot sent ${JSON.stringify(bodies)}`);
}
console.log("pick-and-install program: answered one SMS through Redis");
