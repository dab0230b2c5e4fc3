import { describeAdapter } from "@baton/conformance";
import type { Adapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createTeamsAdapter, type TeamsAdapter, type TeamsThreadData } from "../src/index.js";
import {
  createTeamsActivityRequest,
  type FakeBotFramework,
  startFakeBotFramework,
} from "../src/testing/index.js";

const fakes = new WeakMap<Adapter<TeamsThreadData>, FakeBotFramework>();
const USER_ID = "29:conformance-user";
let sequence = 0;

/** Delivers a signed message activity into `threadId`, from `fromId`. */
async function deliver(
  adapter: Adapter<TeamsThreadData>,
  threadId: string,
  text: string,
  fromId: string,
) {
  const fake = fakes.get(adapter);
  if (fake === undefined) throw new Error("no fake Bot Framework for this adapter");
  const { conversationId, serviceUrl } = adapter.decodeThreadId(threadId);
  sequence += 1;
  const personal = !conversationId.startsWith("19:");
  const activity = {
    type: "message",
    id: `conf-${sequence}`,
    text: personal ? text : `<at>bot</at> ${text}`,
    serviceUrl,
    channelId: "msteams",
    from: { id: fromId, name: "Conformance User" },
    recipient: { id: `28:${fake.appId}`, name: "bot" },
    conversation: {
      id: conversationId,
      tenantId: "tenant-conformance",
      conversationType: personal ? "personal" : "channel",
      isGroup: !personal,
    },
    entities: personal
      ? []
      : [
          {
            type: "mention",
            text: "<at>bot</at>",
            mentioned: { id: `28:${fake.appId}`, name: "bot" },
          },
        ],
  };
  const response = await adapter.handleWebhook(createTeamsActivityRequest({ fake, activity }));
  if (!response.ok)
    throw new Error(`the webhook answered ${response.status}: ${await response.text()}`);
  return response;
}

const SERVICE_URL = "https://smba.trafficmanager.net/amer/conformance/";

describeAdapter<TeamsThreadData>("teams", {
  create: async (): Promise<TeamsAdapter> => {
    const fake = await startFakeBotFramework();
    const adapter = createTeamsAdapter({
      appId: fake.appId,
      appTenantId: "tenant-conformance",
      token: fake.tokenFactory(),
      cloud: fake.cloud,
      apiUrl: fake.serviceUrl,
      retryBaseDelayMs: 1,
    });
    fakes.set(adapter, fake);
    return adapter;
  },
  createState: () => createMemoryState(),
  // The personal chat comes first: the suite posts into the first thread, and only there does
  // every declared capability hold — a file other than a picture reaches a user only in a
  // personal chat (a file consent card); channels refuse it (test/files.test.ts), as they do in
  // Teams. Channel and group-chat behaviour is pinned by the adapter's own tests.
  threads: [
    { conversationId: "a:conformance-personal", serviceUrl: SERVICE_URL },
    {
      conversationId: "19:conformance@thread.tacv2;messageid=1767000000000",
      serviceUrl: SERVICE_URL,
    },
    { conversationId: "19:group-conformance@thread.v2", serviceUrl: SERVICE_URL },
  ],
  deliverUserMessage: (adapter, threadId, text) => deliver(adapter, threadId, text, USER_ID),
  // Teams does not echo the bot's posts; an activity from the bot's own id must be ignored.
  deliverSelfMessage: (adapter, threadId, text) =>
    deliver(adapter, threadId, text, `28:${fakes.get(adapter)?.appId ?? ""}`),
  userIn: () => USER_ID,
  dispose: async (adapter) => {
    await fakes.get(adapter)?.close();
  },
});
