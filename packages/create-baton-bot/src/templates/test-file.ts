import type { PlatformSpec } from "../platforms.js";
import type { ProjectPlan } from "./project-files.js";

const TWILIO_TEST = `test("answers an SMS, against the offline fake of Twilio", async () => {
  const fake = await startFakeTwilio();
  const webhookUrl = "https://bot.example.com/api/twilio";
  const twilio = createTwilioAdapter({
    accountSid: fake.accountSid,
    authToken: fake.authToken,
    apiUrl: fake.url,
    phoneNumber: "+15550000001",
    webhookUrl,
  });
  const bot = createBot({ adapters: { twilio }, sync: true });
  try {
    const response = await bot.webhooks.twilio?.(
      createTwilioWebhookRequest({
        url: webhookUrl,
        authToken: fake.authToken,
        params: { MessageSid: "SM1", From: "+15550000002", To: "+15550000001", Body: "hello" },
      }),
    );
    assert.equal(response?.status, 200);
    assert.deepEqual(fake.bodiesTo("+15550000002"), ["You said: hello"]);
  } finally {
    await bot.shutdown();
    await fake.close();
  }
});
`;

const WEB_TEST = `test("answers a web chat message", async () => {
  const web = createWebAdapter({
    identify: (request) => {
      const userId = request.headers.get("x-user");
      return userId ? { userId, userName: userId } : null;
    },
  });
  const bot = createBot({ adapters: { web }, sync: true });
  try {
    const response = await bot.webhooks.web?.(
      new Request("http://localhost/api/web/messages", {
        method: "POST",
        headers: { "content-type": "application/json", "x-user": "alice" },
        body: JSON.stringify({ text: "hello" }),
      }),
    );
    assert.equal(response?.ok, true);
    const page = await web.fetchMessages("web:alice:dm");
    assert.ok(page.messages.some((message) => message.text === "You said: hello"));
  } finally {
    await bot.shutdown();
  }
});
`;

const TELEGRAM_TEST = `test("answers a Telegram message, against the offline fake Bot API", async () => {
  const fake = await startFakeTelegram();
  const telegram = createTelegramAdapter({
    botToken: fake.token,
    secretToken: "test-secret",
    apiUrl: fake.url,
    mode: "webhook",
  });
  const bot = createBot({ adapters: { telegram }, sync: true });
  try {
    const updates = new TelegramUpdateBuilder(fake.botUserName);
    const response = await bot.webhooks.telegram?.(
      createTelegramWebhookRequest({ update: updates.message("hello"), secretToken: "test-secret" }),
    );
    assert.equal(response?.status, 200);
    assert.deepEqual(
      fake.sentTo(PRIVATE_CHAT.id).map((message) => message.text),
      ["You said: hello"],
    );
  } finally {
    await bot.shutdown();
    await fake.close();
  }
});
`;

const SLACK_TEST = `test("answers a Slack direct message, against the offline fake Slack", async () => {
  const fake = await startFakeSlack();
  const slack = createSlackAdapter({
    botToken: fake.botToken,
    signingSecret: fake.signingSecret,
    apiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
  });
  const bot = createBot({ adapters: { slack }, sync: true });
  try {
    const response = await bot.webhooks.slack?.(
      createSlackWebhookRequest({
        signingSecret: fake.signingSecret,
        json: {
          type: "event_callback",
          team_id: fake.teamId,
          event: { type: "message", channel_type: "im", channel: "D1", user: "U1", text: "hello", ts: "1.1" },
        },
      }),
    );
    assert.equal(response?.status, 200);
    const texts = fake.callsOf("chat.postMessage").map((call) => call.args.text);
    assert.deepEqual(texts, ["You said: hello"]);
  } finally {
    await bot.shutdown();
    await fake.close();
  }
});
`;

const TEAMS_TEST = `test("answers a Teams personal chat, against the offline fake Bot Framework", async () => {
  const fake = await startFakeBotFramework();
  const teams = createTeamsAdapter({
    appId: fake.appId,
    token: fake.tokenFactory(),
    cloud: fake.cloud,
    apiUrl: fake.serviceUrl,
  });
  const bot = createBot({ adapters: { teams }, sync: true });
  try {
    const response = await bot.webhooks.teams?.(
      createTeamsActivityRequest({
        fake,
        activity: {
          type: "message",
          id: "1",
          text: "hello",
          serviceUrl: fake.serviceUrl,
          channelId: "msteams",
          from: { id: "29:user", name: "Ada" },
          recipient: { id: \`28:\${fake.appId}\` },
          conversation: { id: "a:personal", conversationType: "personal" },
        },
      }),
    );
    assert.ok(response && response.status < 300);
    const texts = fake.calls
      .filter((call) => call.route === "activities.create")
      .map((call) => String(call.body?.text ?? "").trim());
    assert.deepEqual(texts, ["You said: hello"]);
  } finally {
    await bot.shutdown();
    await fake.close();
  }
});
`;

const TESTS: Record<string, { imports: string[]; body: string }> = {
  slack: {
    imports: [
      'import { createSlackAdapter } from "@baton/adapter-slack";',
      'import { createSlackWebhookRequest, startFakeSlack } from "@baton/adapter-slack/testing";',
    ],
    body: SLACK_TEST,
  },
  teams: {
    imports: [
      'import { createTeamsAdapter } from "@baton/adapter-teams";',
      'import { createTeamsActivityRequest, startFakeBotFramework } from "@baton/adapter-teams/testing";',
    ],
    body: TEAMS_TEST,
  },
  telegram: {
    imports: [
      'import { createTelegramAdapter } from "@baton/adapter-telegram";',
      "import {",
      "  createTelegramWebhookRequest,",
      "  PRIVATE_CHAT,",
      "  startFakeTelegram,",
      "  TelegramUpdateBuilder,",
      '} from "@baton/adapter-telegram/testing";',
    ],
    body: TELEGRAM_TEST,
  },
  twilio: {
    imports: [
      'import { createTwilioAdapter } from "@baton/adapter-twilio";',
      'import { createTwilioWebhookRequest, startFakeTwilio } from "@baton/adapter-twilio/testing";',
    ],
    body: TWILIO_TEST,
  },
  web: { imports: ['import { createWebAdapter } from "@baton/adapter-web";'], body: WEB_TEST },
};

function testsOf(platform: PlatformSpec) {
  const found = TESTS[platform.name];
  if (!found) throw new Error(`no test template for platform ${platform.name}`);
  return found;
}

/** `test/bot.test.ts`: one test per platform, each against that platform's offline kit. */
export function testFile(plan: ProjectPlan): string {
  const parts = plan.platforms.map(testsOf);
  return [
    'import assert from "node:assert/strict";',
    'import { test } from "node:test";',
    ...parts.flatMap((part) => part.imports),
    'import { createBot } from "../src/bot.js";',
    "",
    ...parts.map((part) => part.body),
  ].join("\n");
}
