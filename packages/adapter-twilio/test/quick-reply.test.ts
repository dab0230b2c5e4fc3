import {
  Actions,
  Button,
  Card,
  CardText,
  Chat,
  LinkButton,
  Select,
  SelectOption,
} from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  cardToQuickReply,
  createTwilioAdapter,
  encodeTwilioThreadId,
  QuickReplyTemplates,
  quickReplyFriendlyName,
  TwilioApi,
} from "../src/index.js";
import { type FakeTwilio, startFakeTwilio } from "../src/testing/index.js";
import { BOT_NUMBER, CUSTOMER, createTwilioHarness, WEBHOOK_URL } from "./twilio-harness.js";

const WA_BOT = `whatsapp:${BOT_NUMBER}`;
const WA_CUSTOMER = `whatsapp:${CUSTOMER}`;
const WA_THREAD = encodeTwilioThreadId({ sender: WA_BOT, recipient: WA_CUSTOMER });

const closers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const closer of closers.splice(0)) await closer.close();
});

function approval(ticket: string) {
  return Card({
    title: `Refund ${ticket}?`,
    children: [
      CardText("The customer asked for a refund."),
      Actions([
        Button({ id: "approve", label: "Approve", value: ticket }),
        Button({ id: "reject", label: "Reject", value: ticket }),
        LinkButton({ url: `https://desk.example/${ticket}`, label: "Open" }),
      ]),
    ],
  });
}

function buttons(count: number) {
  return Card({
    title: "Pick one",
    children: [
      Actions(
        Array.from({ length: count }, (_, index) =>
          Button({ id: `b${index + 1}`, label: `Option ${index + 1}` }),
        ),
      ),
    ],
  });
}

function fakeApi(fake: FakeTwilio): TwilioApi {
  return new TwilioApi({
    accountSid: fake.accountSid,
    authToken: fake.authToken,
    apiKeySid: undefined,
    apiKeySecret: undefined,
    apiUrl: fake.url,
    maxRetries: 0,
    retryBaseDelayMs: 1,
    clock: createFakeClock(),
    logger: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
  });
}

async function whatsappHarness(config: Parameters<typeof createTwilioHarness>[0] = {}) {
  const h = await createTwilioHarness(config);
  closers.push(h);
  const tap = (payload: string, text: string) =>
    h.deliver(
      h.sms("", { From: WA_CUSTOMER, To: WA_BOT, ButtonPayload: payload, ButtonText: text }),
    );
  return { ...h, tap };
}

describe("cardToQuickReply", () => {
  it("expresses a card of up to 3 buttons with its text and link lines as the body", () => {
    expect(cardToQuickReply(approval("T-1"))).toEqual({
      body: "*Refund T-1?*\nThe customer asked for a refund.\n\nOpen: https://desk.example/T-1",
      template: "{{1}}\n{{2}}\n\n{{3}}",
      variables: {
        "1": "*Refund T-1?*",
        "2": "The customer asked for a refund.",
        "3": "Open: https://desk.example/T-1",
      },
      buttons: [
        { id: "approve", title: "Approve" },
        { id: "reject", title: "Reject" },
      ],
      choices: [
        { number: 1, actionId: "approve", label: "Approve", value: "T-1" },
        { number: 2, actionId: "reject", label: "Reject", value: "T-1" },
      ],
    });
  });

  it("leaves to the numbered menu what quick replies cannot express", () => {
    const select = Card({
      title: "Size",
      children: [
        Actions([
          Select({
            id: "size",
            label: "Size",
            options: [SelectOption({ label: "S", value: "s" })],
          }),
        ]),
      ],
    });
    const longTitle = Card({
      title: "Long",
      children: [Actions([Button({ id: "x", label: "A title longer than twenty" })])],
    });
    const sameTitles = Card({
      title: "Twins",
      children: [Actions([Button({ id: "a", label: "Same" }), Button({ id: "b", label: "Same" })])],
    });
    const linksOnly = Card({
      title: "Links",
      children: [Actions([LinkButton({ url: "https://a.example", label: "A" })])],
    });
    const longBody = Card({
      title: "Long body",
      children: [CardText("x".repeat(1_100)), Actions([Button({ id: "ok", label: "OK" })])],
    });

    expect(cardToQuickReply(buttons(3))?.buttons).toHaveLength(3);
    for (const card of [buttons(4), select, longTitle, sameTitles, linksOnly, longBody]) {
      expect(cardToQuickReply(card), card.title).toBeUndefined();
    }
  });
});

describe("WhatsApp cards are sent as quick-reply buttons through the Content API", () => {
  it("puts tabs and long runs of spaces of a line into one variable as single short gaps", () => {
    const card = Card({
      title: "Spaced",
      children: [CardText("a\tb        c"), Actions([Button({ id: "ok", label: "OK" })])],
    });
    const quickReply = cardToQuickReply(card);
    expect(quickReply?.template).toBe("{{1}}\n{{2}}");
    for (const value of Object.values(quickReply?.variables ?? {})) {
      expect(value).not.toMatch(/[\n\t]| {5,}/);
    }
    expect(quickReply?.variables["2"]).toBe("a b    c");
  });

  it("creates one twilio/quick-reply template and sends it with one variable per line of the card's text", async () => {
    const h = await whatsappHarness();

    await h.chat.thread(WA_THREAD).post(approval("T-1"));

    expect(h.fake.contents).toHaveLength(1);
    const [template] = h.fake.contents;
    expect(template).toMatchObject({
      friendlyName: quickReplyFriendlyName(
        [
          { id: "approve", title: "Approve" },
          { id: "reject", title: "Reject" },
        ],
        "{{1}}\n{{2}}\n\n{{3}}",
      ),
      language: "en",
      types: {
        "twilio/quick-reply": {
          body: "{{1}}\n{{2}}\n\n{{3}}",
          actions: [
            { id: "approve", title: "Approve" },
            { id: "reject", title: "Reject" },
          ],
        },
      },
    });
    const [message] = h.fake.messages;
    expect(message).toMatchObject({
      to: WA_CUSTOMER,
      from: WA_BOT,
      contentSid: template?.sid,
      contentVariables: {
        "1": "*Refund T-1?*",
        "2": "The customer asked for a refund.",
        "3": "Open: https://desk.example/T-1",
      },
      body: "*Refund T-1?*\nThe customer asked for a refund.\n\nOpen: https://desk.example/T-1",
    });
    // Twilio keeps a template's samples forever: they must not be the first customer's text.
    expect(JSON.stringify(template?.variables)).not.toMatch(/Refund|customer|desk\.example/);
    expect(message?.body).not.toContain("Reply with a number");
    expect(h.fake.requests.some((request) => request.params.Body !== undefined)).toBe(false);
  });

  it("reuses the template for every card with the same buttons, and makes one per new button set", async () => {
    const h = await whatsappHarness();
    const thread = h.chat.thread(WA_THREAD);

    await thread.post(approval("T-1"));
    await thread.post(approval("T-2"));
    await thread.post(buttons(2));

    expect(h.fake.contents).toHaveLength(2);
    const sids = h.fake.messages.map((message) => message.contentSid);
    expect(sids[0]).toBe(sids[1]);
    expect(sids[2]).not.toBe(sids[0]);
    expect(h.fake.bodiesTo(WA_CUSTOMER)[1]).toContain("Refund T-2?");
    const creates = h.fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/Content");
    expect(creates).toHaveLength(2);
  });

  it("creates a button set's template once when posts of it race", async () => {
    const h = await whatsappHarness();
    const other = encodeTwilioThreadId({ sender: WA_BOT, recipient: "whatsapp:+15550000003" });

    await Promise.all([
      h.chat.thread(WA_THREAD).post(approval("T-1")),
      h.chat.thread(other).post(approval("T-2")),
    ]);

    expect(h.fake.contents).toHaveLength(1);
    expect(h.fake.messages.map((message) => message.contentSid)).toEqual([
      h.fake.contents[0]?.sid,
      h.fake.contents[0]?.sid,
    ]);
  });

  it("runs onAction with the tapped button's id and value", async () => {
    const h = await whatsappHarness();
    const actions: Array<[string, string | undefined, string]> = [];
    const messages: string[] = [];
    h.chat.onAction((event) => {
      actions.push([event.actionId, event.value, event.threadId]);
    });
    h.chat.onDirectMessage((_thread, message) => {
      messages.push(message.text);
    });
    await h.chat.thread(WA_THREAD).post(approval("T-7"));

    const answer = await h.tap("reject", "Reject");
    await h.clock.settle();
    // The buttons were never numbered for the customer: a typed number is a message.
    await h.deliver(h.sms("1", { From: WA_CUSTOMER, To: WA_BOT }));

    expect(answer.status).toBe(200);
    expect(actions).toEqual([["reject", "T-7", WA_THREAD]]);
    expect(messages).toEqual(["1"]);
  });

  it("runs a tap on an older card with that card's value, found by OriginalRepliedMessageSid", async () => {
    const h = await whatsappHarness();
    const actions: Array<[string, string | undefined]> = [];
    h.chat.onAction((event) => {
      actions.push([event.actionId, event.value]);
    });
    const first = await h.chat.thread(WA_THREAD).post(approval("T-1"));
    await h.chat.thread(WA_THREAD).post(approval("T-2"));

    const tapOn = (original: string | undefined) =>
      h.deliver(
        h.sms("", {
          From: WA_CUSTOMER,
          To: WA_BOT,
          ButtonPayload: "approve",
          ButtonText: "Approve",
          ...(original === undefined ? {} : { OriginalRepliedMessageSid: original }),
        }),
      );
    await tapOn(first.id);
    await h.clock.settle();
    // Without the replied-to sid (or for one no longer remembered) the thread's last card counts.
    await tapOn(undefined);
    await h.clock.settle();
    await tapOn(`SM${"f".repeat(32)}`);
    await h.clock.settle();

    expect(actions).toEqual([
      ["approve", "T-1"],
      ["approve", "T-2"],
      ["approve", "T-2"],
    ]);
  });

  it("keeps the numbered menu where quick replies cannot express the card, and on SMS", async () => {
    const h = await whatsappHarness();
    const actions: Array<[string, string | undefined]> = [];
    h.chat.onAction((event) => {
      actions.push([event.actionId, event.value]);
    });

    await h.chat.thread(WA_THREAD).post(buttons(4));
    await h.chat
      .thread(encodeTwilioThreadId({ sender: BOT_NUMBER, recipient: CUSTOMER }))
      .post(approval("T-3"));
    await h.deliver(h.sms("4", { From: WA_CUSTOMER, To: WA_BOT }));
    await h.clock.settle();

    expect(h.fake.contents).toEqual([]);
    expect(h.fake.bodiesTo(WA_CUSTOMER)[0]).toContain("Reply with a number:\n1. Option 1");
    expect(h.fake.bodiesTo(CUSTOMER)[0]).toContain("Reply with a number:\n1. Approve\n2. Reject");
    expect(actions).toEqual([["b4", undefined]]);
  });

  it("sends numbered menus only when whatsappQuickReplies is false", async () => {
    const h = await whatsappHarness({ whatsappQuickReplies: false });

    await h.chat.thread(WA_THREAD).post(approval("T-1"));

    expect(h.fake.contents).toEqual([]);
    expect(h.fake.bodiesTo(WA_CUSTOMER)[0]).toContain("Reply with a number:\n1. Approve");
  });

  it("tries the template again on the next post when Twilio refused to create it", async () => {
    const h = await whatsappHarness();
    const thread = h.chat.thread(WA_THREAD);
    h.fake.failNext("content.create", { status: 400, code: 20001, message: "bad template" });

    await expect(thread.post(approval("T-1"))).rejects.toThrow(/create a content template/);
    await thread.post(approval("T-2"));

    expect(h.fake.contents).toHaveLength(1);
    expect(h.fake.messages).toHaveLength(1);
    expect(h.fake.messages[0]?.body).toContain("Refund T-2?");
  });

  it("makes the template anew when Twilio no longer has the cached one (21655)", async () => {
    const h = await whatsappHarness();
    const thread = h.chat.thread(WA_THREAD);
    await thread.post(approval("T-1"));
    const first = h.fake.contents[0]?.sid as string;
    h.fake.deleteContent(first);

    await thread.post(approval("T-2"));

    expect(h.fake.contents).toHaveLength(1);
    const second = h.fake.contents[0]?.sid;
    expect(second).not.toBe(first);
    expect(h.fake.messages.map((message) => message.contentSid)).toEqual([first, second]);
  });
});

describe("quick-reply templates are shared through the State and found again on Twilio", () => {
  async function replica(fake: FakeTwilio, state: ReturnType<typeof createMemoryState>) {
    const clock = createFakeClock();
    const adapter = createTwilioAdapter({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiUrl: fake.url,
      phoneNumber: BOT_NUMBER,
      webhookUrl: WEBHOOK_URL,
      clock,
    });
    const chat = new Chat({
      userName: "bot",
      adapters: { twilio: adapter },
      state,
      logger: "silent",
    });
    await chat.initialize();
    closers.push({ close: () => chat.shutdown() });
    return chat;
  }

  it("lets a second replica reuse a template without creating or listing", async () => {
    const fake = await startFakeTwilio();
    closers.push(fake);
    const state = createMemoryState();
    const one = await replica(fake, state);
    const two = await replica(fake, state);

    await one.thread(WA_THREAD).post(approval("T-1"));
    const before = fake.requests.length;
    await two.thread(WA_THREAD).post(approval("T-2"));

    expect(fake.contents).toHaveLength(1);
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /2010-04-01/Accounts/${fake.accountSid}/Messages.json`,
    ]);
  });

  it("keeps each account's template sids apart when two accounts share one State", async () => {
    const first = await startFakeTwilio({ accountSid: `AC${"1".repeat(32)}` });
    const second = await startFakeTwilio({ accountSid: `AC${"2".repeat(32)}` });
    closers.push(first, second);
    const state = createMemoryState();
    const one = await replica(first, state);
    const two = await replica(second, state);

    await one.thread(WA_THREAD).post(approval("T-1"));
    await two.thread(WA_THREAD).post(approval("T-2"));

    expect(second.contents).toHaveLength(1);
    // The second account never sent the first account's sid (refused with 21655, then remade).
    const sends = second.requests.filter((r) => r.path.endsWith("/Messages.json"));
    expect(sends.map((r) => r.params.ContentSid)).toEqual([second.contents[0]?.sid]);
  });

  it("finds the template by its friendly name when the State lost it", async () => {
    const fake = await startFakeTwilio();
    closers.push(fake);
    const first = await replica(fake, createMemoryState());
    await first.thread(WA_THREAD).post(approval("T-1"));
    const fresh = await replica(fake, createMemoryState());

    await fresh.thread(WA_THREAD).post(approval("T-2"));

    expect(fake.contents).toHaveLength(1);
    expect(fake.messages[1]?.contentSid).toBe(fake.contents[0]?.sid);
    expect(fake.requests.some((r) => r.method === "GET" && r.path === "/v1/Content")).toBe(true);
  });

  it("posts a card whose text has tabs and long runs of spaces, which Twilio refuses in a variable", async () => {
    const h = await whatsappHarness();
    const card = Card({
      title: "Columns",
      children: [CardText("Name\tQty        Price"), Actions([Button({ id: "ok", label: "OK" })])],
    });

    await h.chat.thread(WA_THREAD).post(card);

    expect(h.fake.messages[0]?.body).toBe("*Columns*\nName Qty    Price");
  });

  it("has the fake refuse a variable Twilio refuses (21656): newline, tab, 5 spaces, empty", async () => {
    const fake = await startFakeTwilio();
    closers.push(fake);
    const api = new TwilioApi({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiKeySid: undefined,
      apiKeySecret: undefined,
      apiUrl: fake.url,
      maxRetries: 0,
      retryBaseDelayMs: 1,
      clock: createFakeClock(),
      logger: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
    });
    const state = createMemoryState();
    await state.connect();
    const templates = new QuickReplyTemplates(api, () => state, 10);
    const contentSid = await templates.sidFor([{ id: "a", title: "A" }], "{{1}}");
    const sendWith = (value: string) =>
      api.sendMessage({
        to: WA_CUSTOMER,
        from: WA_BOT,
        contentSid,
        contentVariables: JSON.stringify({ "1": value }),
      });

    for (const value of ["two\nlines", "a\ttab", "five     spaces", ""]) {
      await expect(sendWith(value), JSON.stringify(value)).rejects.toMatchObject({
        twilioCode: 21656,
      });
    }
    await expect(sendWith("four    spaces")).resolves.toMatchObject({ body: "four    spaces" });
  });

  it("keeps a refreshed template cached when an older lookup of the same set fails later", async () => {
    const fake = await startFakeTwilio();
    closers.push(fake);
    const state = createMemoryState();
    await state.connect();
    const reads: string[] = [];
    let release: (() => void) | undefined;
    let gate: Promise<void> | undefined = new Promise((resolve) => {
      release = resolve;
    });
    const gated = Object.assign(Object.create(state), {
      get: async (key: string) => {
        reads.push(key);
        const waiting = gate;
        gate = undefined;
        if (waiting !== undefined) {
          await waiting;
          throw new Error("State read failed");
        }
        return state.get(key);
      },
    });
    const templates = new QuickReplyTemplates(fakeApi(fake), () => gated);
    const set = [{ id: "a", title: "A" }];

    const older = templates.sidFor(set, "{{1}}");
    const newer = await templates.sidFor(set, "{{1}}", true);
    release?.();
    await expect(older).rejects.toThrow("State read failed");

    expect(await templates.sidFor(set, "{{1}}")).toBe(newer);
    expect(reads).toHaveLength(1);
  });

  it("has racing replicas that both created a template agree on the first sid stored", async () => {
    const fake = await startFakeTwilio();
    closers.push(fake);
    const state = createMemoryState();
    await state.connect();
    const api = fakeApi(fake);
    // Both replicas look on Twilio before either creates, as two replicas racing would.
    let arrived = 0;
    let bothLooked: (() => void) | undefined;
    const barrier = new Promise<void>((resolve) => {
      bothLooked = resolve;
    });
    const racing = Object.assign(Object.create(api), {
      findContent: async (name: string) => {
        arrived += 1;
        if (arrived === 2) bothLooked?.();
        await barrier;
        return api.findContent(name);
      },
    });
    const one = new QuickReplyTemplates(racing, () => state);
    const two = new QuickReplyTemplates(racing, () => state);
    const set = [{ id: "a", title: "A" }];

    const [a, b] = await Promise.all([one.sidFor(set, "{{1}}"), two.sidFor(set, "{{1}}")]);

    expect(fake.contents).toHaveLength(2);
    expect(a).toBe(b);
  });

  it("keeps a bounded number of button sets in memory and reads evicted ones from the State", async () => {
    const fake = await startFakeTwilio();
    closers.push(fake);
    const state = createMemoryState();
    await state.connect();
    const reads: string[] = [];
    const counted = Object.assign(Object.create(state), {
      get: (key: string) => {
        reads.push(key);
        return state.get(key);
      },
    });
    const api = new TwilioApi({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiKeySid: undefined,
      apiKeySecret: undefined,
      apiUrl: fake.url,
      maxRetries: 0,
      retryBaseDelayMs: 1,
      clock: createFakeClock(),
      logger: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
    });
    const templates = new QuickReplyTemplates(api, () => counted, 1);
    const a = [{ id: "a", title: "A" }];
    const b = [{ id: "b", title: "B" }];

    const first = await templates.sidFor(a, "{{1}}");
    expect(await templates.sidFor(a, "{{1}}")).toBe(first);
    expect(reads).toHaveLength(1);
    await templates.sidFor(b, "{{1}}");
    expect(await templates.sidFor(a, "{{1}}")).toBe(first);

    expect(reads).toHaveLength(3);
    expect(fake.contents).toHaveLength(2);
  });
});
