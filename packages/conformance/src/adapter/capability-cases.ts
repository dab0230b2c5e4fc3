import { type AdapterCapabilities, capabilitiesOf, defineCapabilities } from "@baton/core";
import { type AdapterConformanceCase, defineAdapterCases } from "./adapter-case.js";
import {
  check,
  expectMethodRefuses,
  expectNotSupported,
  sampleUser,
  show,
  textStream,
} from "./capability-checks.js";

/** Which optional method each declared capability needs. */
const METHOD_OF: Partial<Record<keyof AdapterCapabilities, string>> = {
  modals: "openModal",
  ephemeral: "postEphemeral",
  scheduling: "scheduleMessage",
  openDM: "openDM",
  getUser: "getUser",
  readReceipts: "markAsRead",
  replies: "reply",
};

/** A card with one plain button, as a handler would post it. */
const SAMPLE_CARD = {
  type: "card" as const,
  title: "Conformance card",
  children: [
    { type: "text" as const, content: "a card from the conformance suite" },
    {
      type: "actions" as const,
      children: [{ type: "button" as const, id: "conformance-ok", label: "OK" }],
    },
  ],
};

const declared = defineAdapterCases("capabilities", {
  "capabilities are complete and backed by the optional methods they name": async ({ adapter }) => {
    const capabilities = capabilitiesOf(adapter);
    // defineCapabilities throws a ValidationError naming a missing or malformed flag.
    defineCapabilities(capabilities);
    for (const [feature, method] of Object.entries(METHOD_OF)) {
      if (!capabilities[feature as keyof AdapterCapabilities]) continue;
      const fn = (adapter as unknown as Record<string, unknown>)[method as string];
      check(typeof fn === "function", `"${feature}" is declared but adapter.${method} is missing`);
    }
    if (capabilities.streaming === "native") {
      check(typeof adapter.stream === "function", `streaming "native" needs adapter.stream`);
    }
  },
});

const messages = defineAdapterCases("capabilities: messages", {
  "editMessage: an edit keeps the message id and shows the new content, or is refused": async (
    context,
  ) => {
    const thread = context.chat.thread(context.threadId);
    const sent = await thread.post("conformance: before the edit");
    if (!capabilitiesOf(context.adapter).editMessage) {
      await expectNotSupported(context, "editMessage", "sent.edit", () => sent.edit("after"));
      await expectMethodRefuses(context, "editMessage", "editMessage", () =>
        context.adapter.editMessage(sent.threadId, sent.id, "after"),
      );
      return;
    }
    const edited = await sent.edit({ markdown: "conformance: **after** the edit" });
    check(edited.id === sent.id, `the edit answered id ${show(edited.id)}, not ${show(sent.id)}`);
    check(edited.text === "conformance: after the edit", `edited text is ${show(edited.text)}`);
    // Where the platform's history holds the bot's posts, the edit must show there too.
    if (!capabilitiesOf(context.adapter).history) return;
    const page = await context.adapter.fetchMessages(sent.threadId, { limit: 20 });
    const stored = page.messages.find((message) => message.id === sent.id);
    if (stored === undefined) return;
    check(
      stored.text.includes("after") && !stored.text.includes("before"),
      `history still shows ${show(stored.text)} after the edit`,
    );
  },
  "deleteMessage: a posted message can be deleted, or the delete is refused": async (context) => {
    const sent = await context.chat.thread(context.threadId).post("conformance: to delete");
    if (!capabilitiesOf(context.adapter).deleteMessage) {
      await expectNotSupported(context, "deleteMessage", "sent.delete", () => sent.delete());
      await expectMethodRefuses(context, "deleteMessage", "deleteMessage", () =>
        context.adapter.deleteMessage(sent.threadId, sent.id),
      );
      return;
    }
    await sent.delete();
  },
  "reactions: the bot adds and removes a reaction, or both are refused": async (context) => {
    const sent = await context.chat.thread(context.threadId).post("conformance: react to me");
    if (!capabilitiesOf(context.adapter).reactions) {
      await expectNotSupported(context, "reactions", "sent.addReaction", () =>
        sent.addReaction("thumbs_up"),
      );
      await expectMethodRefuses(context, "reactions", "addReaction", () =>
        context.adapter.addReaction(sent.threadId, sent.id, "thumbs_up"),
      );
      return;
    }
    await sent.addReaction("thumbs_up");
    await sent.removeReaction("thumbs_up");
  },
  "typing: the indicator shows, or is refused": async (context) => {
    const thread = context.chat.thread(context.threadId);
    if (!capabilitiesOf(context.adapter).typing) {
      await expectNotSupported(context, "typing", "thread.startTyping", () =>
        thread.startTyping("thinking"),
      );
      return;
    }
    await thread.startTyping("thinking");
  },
  "history: fetchMessages answers a page of messages of the thread, or is refused": async (
    context,
  ) => {
    const { adapter, threadId } = context;
    if (!capabilitiesOf(adapter).history) {
      await expectMethodRefuses(context, "history", "fetchMessages", () =>
        adapter.fetchMessages(threadId, { limit: 5 }),
      );
      return;
    }
    const page = await adapter.fetchMessages(threadId, { limit: 5 });
    check(Array.isArray(page?.messages), `fetchMessages answered ${show(page)}`);
    check(page.messages.length <= 5, `a page of limit 5 held ${page.messages.length} messages`);
    for (const message of page.messages) {
      check(message.threadId === threadId, `a page of ${threadId} held ${show(message.threadId)}`);
    }
  },
  "streaming: a stream is posted natively or by the fallback, with the whole text": async (
    context,
  ) => {
    const { adapter, chat, threadId } = context;
    const { streaming } = capabilitiesOf(adapter);
    if (streaming === "native") {
      // `null` is the contract's "stream it for me": an adapter may stream natively only in some
      // threads (Teams: personal chats) and hand the rest back to the core's post + edit.
      const raw = await adapter.stream?.(threadId, textStream("conformance: ", "native"));
      check(
        raw === null || (typeof raw?.id === "string" && raw.id !== ""),
        `adapter.stream answered ${show(raw)}`,
      );
    }
    const sent = await chat.thread(threadId).post(textStream("conformance: ", "streamed ", "text"));
    check(
      typeof sent.id === "string" && sent.id !== "",
      `the streamed post has id ${show(sent.id)}`,
    );
    check(
      sent.text === "conformance: streamed text",
      `the streamed post's text is ${show(sent.text)}`,
    );
  },
  "cards: a card is posted as a card, or as its text where cards are not declared": async (
    context,
  ) => {
    const sent = await context.chat.thread(context.threadId).post(SAMPLE_CARD);
    check(typeof sent.id === "string" && sent.id !== "", `the card post has id ${show(sent.id)}`);
    check(sent.text.includes("Conformance card"), `the card's text is ${show(sent.text)}`);
  },
  "files: a file is uploaded with a post, or the post is refused before the platform": async (
    context,
  ) => {
    const thread = context.chat.thread(context.threadId);
    const file = { filename: "conformance.txt", data: new TextEncoder().encode("conformance") };
    const post = () => thread.post({ markdown: "conformance: with a file", files: [file] });
    if (!capabilitiesOf(context.adapter).files) {
      await expectNotSupported(context, "files", "thread.post with files", post);
      return;
    }
    const sent = await post();
    check(typeof sent.id === "string" && sent.id !== "", `the file post has id ${show(sent.id)}`);
  },
});

const conversations = defineAdapterCases("capabilities: conversations", {
  "ephemeral: a message only one user sees is posted natively, or null without DM fallback": async (
    context,
  ) => {
    const thread = context.chat.thread(context.threadId);
    const user = sampleUser(context);
    const result = await thread.postEphemeral(user, "conformance: only you", {
      fallbackToDM: false,
    });
    if (!capabilitiesOf(context.adapter).ephemeral) {
      check(result === null, `without "ephemeral" and fallbackToDM false, got ${show(result)}`);
      const { postEphemeral } = context.adapter;
      await expectMethodRefuses(
        context,
        "ephemeral",
        "postEphemeral",
        postEphemeral && (() => postEphemeral.call(context.adapter, context.threadId, user, "x")),
      );
      return;
    }
    check(result !== null && result.usedFallback === false, `postEphemeral gave ${show(result)}`);
    check(typeof result?.id === "string" && result.id !== "", `ephemeral id ${show(result?.id)}`);
  },
  "scheduling: a post is scheduled and cancelled, or schedule is refused": async (context) => {
    const thread = context.chat.thread(context.threadId);
    const postAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
    const schedule = () => thread.schedule("conformance: later", { postAt });
    if (!capabilitiesOf(context.adapter).scheduling) {
      await expectNotSupported(context, "scheduling", "thread.schedule", schedule);
      return;
    }
    const scheduled = await schedule();
    check(
      typeof scheduled.scheduledMessageId === "string" && scheduled.scheduledMessageId !== "",
      `schedule answered ${show(scheduled)}`,
    );
    check(scheduled.postAt instanceof Date, `postAt is ${show(scheduled.postAt)}`);
    await scheduled.cancel();
  },
  "openDM: a user's direct thread is opened, or the call is refused": async (context) => {
    const { adapter } = context;
    const user = sampleUser(context);
    const { openDM } = adapter;
    if (!capabilitiesOf(adapter).openDM) {
      await expectMethodRefuses(
        context,
        "openDM",
        "openDM",
        openDM && (() => openDM.call(adapter, user)),
      );
      return;
    }
    const dm = await openDM?.call(adapter, user);
    check(typeof dm === "string" && dm.startsWith(`${adapter.name}:`), `openDM gave ${show(dm)}`);
    if (typeof adapter.isDM === "function") {
      check(adapter.isDM(dm as string), `isDM(${show(dm)}) is false for the DM openDM opened`);
    }
  },
  "getUser: a lookup answers a user or null, or is refused": async (context) => {
    const { adapter } = context;
    const user = sampleUser(context);
    const { getUser } = adapter;
    if (!capabilitiesOf(adapter).getUser) {
      await expectMethodRefuses(
        context,
        "getUser",
        "getUser",
        getUser && (() => getUser.call(adapter, user)),
      );
      return;
    }
    const found = await getUser?.call(adapter, user);
    check(
      found === null || (typeof found?.userId === "string" && typeof found.userName === "string"),
      `getUser answered ${show(found)}`,
    );
  },
  "readReceipts: a message is marked read, or markAsRead is refused": async (context) => {
    const thread = context.chat.thread(context.threadId);
    const sent = await thread.post("conformance: read me");
    if (!capabilitiesOf(context.adapter).readReceipts) {
      await expectNotSupported(context, "readReceipts", "thread.markAsRead", () =>
        thread.markAsRead(sent.id),
      );
      return;
    }
    await thread.markAsRead(sent.id);
  },
  "replies: a native reply to a message is posted, or reply is refused": async (context) => {
    const thread = context.chat.thread(context.threadId);
    const sent = await thread.post("conformance: reply to me");
    const reply = () => thread.reply(sent.id, "conformance: the reply");
    if (!capabilitiesOf(context.adapter).replies) {
      await expectNotSupported(context, "replies", "thread.reply", reply);
      return;
    }
    const answered = await reply();
    check(
      typeof answered.id === "string" && answered.id !== sent.id,
      `reply gave ${show(answered.id)}`,
    );
  },
  "modals: openModal exists where modals are declared, and refuses otherwise": async (context) => {
    const { adapter } = context;
    const { openModal } = adapter as { openModal?: (...args: unknown[]) => Promise<unknown> };
    if (capabilitiesOf(adapter).modals) {
      check(typeof openModal === "function", `"modals" is declared but openModal is missing`);
      return;
    }
    const modal = { type: "modal", callbackId: "conformance", title: "Conformance", children: [] };
    await expectMethodRefuses(
      context,
      "modals",
      "openModal",
      openModal && (() => openModal.call(adapter, "conformance-trigger", modal)),
    );
  },
});

/** The capability cases, in order: declaration, message features, conversation features. */
export const capabilityCases: readonly AdapterConformanceCase[] = [
  ...declared,
  ...messages,
  ...conversations,
];
