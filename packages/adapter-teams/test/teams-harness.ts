import { Chat, type ChatConfig, type WebhookOptions } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, type FakeClock } from "@baton/testing";
import { createTeamsAdapter, type TeamsAdapterConfig } from "../src/index.js";
import {
  type ActivityTokenInit,
  createTeamsActivityRequest,
  type FakeBotFramework,
  startFakeBotFramework,
} from "../src/testing/index.js";

/** A Teams user and the bot's ids, as Teams writes them. */
export const USER = { id: "29:user-1", name: "Test User", aadObjectId: "aad-user-1" };
export const TENANT = "tenant-1";
export const CHANNEL = "19:channel-1@thread.tacv2";
export const GROUP_CHAT = "19:group-1@thread.v2";
export const PERSONAL_CHAT = "a:personal-1";

/** Waits (in real time) until the fake clock has more timers than `baseline`: a retry waits. */
export async function retryScheduled(clock: FakeClock, baseline: number): Promise<void> {
  for (let waited = 0; clock.pendingTimers <= baseline; waited += 5) {
    if (waited > 10_000) throw new Error("the adapter never scheduled a retry");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A Chat with the Teams adapter against the offline fake Bot Framework, on the real memory State
 * and a fake clock; `deliver(activity)` posts the activity exactly as Teams does, with a service
 * token signed by the fake's key (verified by the Teams SDK against the fake's JWKS).
 */
export async function createTeamsHarness(
  config: Partial<TeamsAdapterConfig> = {},
  chatOptions: Partial<Omit<ChatConfig, "adapters" | "state">> = {},
  fakeOptions: { appId?: string } = {},
) {
  const fake = await startFakeBotFramework(fakeOptions);
  const clock = createFakeClock();
  const adapter = createTeamsAdapter({
    appId: fake.appId,
    appTenantId: TENANT,
    token: fake.tokenFactory(),
    cloud: fake.cloud,
    apiUrl: fake.serviceUrl,
    retryBaseDelayMs: 10,
    clock,
    ...config,
  });
  const state = createMemoryState({ clock });
  const chat = new Chat({
    userName: "bot",
    adapters: { teams: adapter },
    state,
    logger: "silent",
    clock,
    dispatch: "sync",
    ...chatOptions,
  });
  await chat.initialize();
  const teamsWebhook = chat.webhooks.teams;
  if (teamsWebhook === undefined) throw new Error("the Chat has no teams webhook");
  const webhook = (request: Request, options?: WebhookOptions) => teamsWebhook(request, options);
  const bot = { id: `28:${fake.appId}`, name: "bot" };
  let sequence = 0;

  /** A message activity from {@link USER} in `conversationId` (default a channel reply chain). */
  function message(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    sequence += 1;
    const id = String(1767224924000 + sequence);
    return {
      type: "message",
      id,
      text,
      textFormat: "plain",
      channelId: "msteams",
      serviceUrl: fake.serviceUrl,
      from: USER,
      recipient: bot,
      conversation: {
        id: `${CHANNEL};messageid=1767224924000`,
        conversationType: "channel",
        tenantId: TENANT,
        isGroup: true,
      },
      entities: [],
      channelData: { tenant: { id: TENANT } },
      ...extra,
    };
  }

  /** The `<at>` mention of the bot and its entity, as Teams sends them. */
  const mention = {
    text: `<at>${bot.name}</at>`,
    entity: { type: "mention", text: `<at>${bot.name}</at>`, mentioned: bot },
  };

  /** Delivers an activity and waits for the work it handed to `waitUntil` (actions, reactions). */
  async function deliver(
    activity: Record<string, unknown> | string,
    token: ActivityTokenInit = {},
  ) {
    const detached: Promise<unknown>[] = [];
    const response = await webhook(createTeamsActivityRequest({ fake, activity, ...token }), {
      waitUntil: (task) => {
        detached.push(task);
      },
    });
    await Promise.all(detached);
    return response;
  }

  return {
    fake,
    adapter,
    chat,
    state,
    clock,
    bot,
    mention,
    webhook,
    message,
    deliver,
    close: async () => {
      await chat.shutdown();
      await fake.close();
    },
  };
}

export type TeamsHarness = Awaited<ReturnType<typeof createTeamsHarness>>;

/** Every harness a test opened, closed after it. */
export function trackHarnesses() {
  const open: TeamsHarness[] = [];
  return {
    open: async (...args: Parameters<typeof createTeamsHarness>) => {
      const harness = await createTeamsHarness(...args);
      open.push(harness);
      return harness;
    },
    closeAll: async () => {
      for (const harness of open.splice(0)) await harness.close();
    },
  };
}

export type { FakeBotFramework };
