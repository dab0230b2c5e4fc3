import { createMockAdapter } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { ExternalSelect, Modal, TextInput } from "../../src/content/index.js";
import { jsx } from "../../src/content/jsx/jsx-runtime.js";
import {
  type ActionHandlerEvent,
  type Adapter,
  type Channel,
  type ChatModalCloseEvent,
  MODAL_CONTEXT_TTL_MS,
  type ModalSubmitHandlerEvent,
  NotSupportedError,
  type SentMessage,
  type SlashCommandHandlerEvent,
  type Thread,
} from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";
import {
  actionEvent,
  CHANNEL,
  emptyModal,
  recordingLogger,
  slashCommandEvent,
  submitter,
  THREAD,
} from "./chat-interactions-harness.js";

type SubmitEvent = ModalSubmitHandlerEvent<Thread, Channel, SentMessage>;

/** The harness with an action handler that keeps the event, so a test can call its openModal. */
async function withCapturedAction(options: Parameters<typeof createChatHarness>[0] = {}) {
  const h = await createChatHarness(options);
  const captured: ActionHandlerEvent<Thread>[] = [];
  h.chat.onAction((event) => {
    captured.push(event);
  });
  return { ...h, captured };
}

async function withCapturedCommand(options: Parameters<typeof createChatHarness>[0] = {}) {
  const h = await createChatHarness(options);
  const captured: SlashCommandHandlerEvent<Channel>[] = [];
  h.chat.onSlashCommand((event) => {
    captured.push(event);
  });
  return { ...h, captured };
}

/** The context id the Chat handed to the adapter's openModal in call `index`. */
function contextIdOf(adapter: ReturnType<typeof createMockAdapter>, index = 0): string {
  return adapter.callsOf("openModal")[index]?.args[2] as string;
}

describe("Chat", () => {
  describe("Actions", () => {
    it("should provide openModal method that calls adapter.openModal", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-123" }));
      expect(h.captured).toHaveLength(1);
      expect(typeof h.captured[0]?.openModal).toBe("function");

      const modal = emptyModal("test_modal");
      const result = await h.captured[0]?.openModal(modal);

      const calls = h.adapter.callsOf("openModal");
      expect(calls).toHaveLength(1);
      expect(calls[0]?.args).toEqual(["trigger-123", modal, expect.any(String)]);
      expect(result).toEqual({ viewId: "mock-view-1" });
      // The origin is stored in the State under the context id, naming the thread.
      const stored = await h.state.get(`modal-context:mock:${contextIdOf(h.adapter)}`);
      expect(stored).toMatchObject({ threadId: THREAD, channelId: "mock:C123" });
    });

    it("should convert JSX Modal to ModalElement in openModal", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-123" }));

      const jsxModal = jsx(Modal, {
        callbackId: "jsx_modal",
        title: "JSX Modal",
        children: [jsx(TextInput, { id: "name", label: "Name" })],
      });
      const result = await h.captured[0]?.openModal(jsxModal);

      expect(h.adapter.callsOf("openModal")[0]?.args).toEqual([
        "trigger-123",
        expect.objectContaining({ type: "modal", callbackId: "jsx_modal", title: "JSX Modal" }),
        expect.any(String),
      ]);
      expect(result).toEqual({ viewId: "mock-view-1" });
    });

    it("should return undefined from openModal when triggerId is missing", async () => {
      const { logger, lines } = recordingLogger();
      const h = await withCapturedAction({ logger });
      await h.chat.processAction(h.adapter, actionEvent());

      const result = await h.captured[0]?.openModal(emptyModal("test_modal"));

      expect(result).toBeUndefined();
      expect(h.adapter.callsOf("openModal")).toEqual([]);
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: "warn",
          message: "cannot open a modal: the event carries no trigger id",
        }),
      );
    });

    it("throws a NotSupportedError from openModal when the adapter cannot open modals", async () => {
      const h = await withCapturedAction({ adapter: { capabilities: { modals: false } } });
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-123" }));

      const opening = h.captured[0]?.openModal(emptyModal("test_modal"));

      await expect(opening).rejects.toBeInstanceOf(NotSupportedError);
      await expect(opening).rejects.toMatchObject({ adapter: "mock", feature: "modals" });
      // Refused before any platform call or State write.
      expect(h.adapter.callsOf("openModal")).toEqual([]);
    });

    it("should open modal when action has empty threadId (no thread context)", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(
        h.adapter,
        actionEvent({
          actionId: "home_select_scope",
          messageId: "",
          threadId: "",
          triggerId: "trigger-456",
        }),
      );
      expect(h.captured).toHaveLength(1);
      expect(h.captured[0]?.thread).toBeNull();

      const modal = emptyModal("select_scope_form", "Select a team");
      const result = await h.captured[0]?.openModal(modal);

      expect(h.adapter.callsOf("openModal")[0]?.args).toEqual([
        "trigger-456",
        modal,
        expect.any(String),
      ]);
      expect(result).toEqual({ viewId: "mock-view-1" });
      const stored = await h.state.get(`modal-context:mock:${contextIdOf(h.adapter)}`);
      expect(stored).toEqual({});
    });

    it("checks a modal written as an object literal like a built one, before calling the platform", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-123" }));
      const literal = {
        ...emptyModal("twice"),
        children: [
          { type: "text_input", id: "name", label: "Name" },
          { type: "text_input", id: "name", label: "Name again" },
        ],
      };

      const opening = h.captured[0]?.openModal(literal as never);

      await expect(opening).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        step: "open modal",
      });
      await expect(opening).rejects.toThrow(/name/);
      expect(h.adapter.callsOf("openModal")).toEqual([]);
    });

    it("refuses a value that is not a modal element with a ValidationError", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-123" }));

      const opening = h.captured[0]?.openModal({ type: "card" } as never);

      await expect(opening).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        name: "ValidationError",
      });
      expect(h.adapter.callsOf("openModal")).toEqual([]);
    });
  });

  describe("Slash Commands", () => {
    it("should provide openModal method that calls adapter.openModal", async () => {
      const h = await withCapturedCommand();
      await h.chat.processSlashCommand(h.adapter, slashCommandEvent({ triggerId: "trigger-123" }));
      expect(typeof h.captured[0]?.openModal).toBe("function");

      const modal = emptyModal("feedback_modal", "Feedback");
      const result = await h.captured[0]?.openModal(modal);

      expect(h.adapter.callsOf("openModal")[0]?.args).toEqual([
        "trigger-123",
        modal,
        expect.any(String),
      ]);
      expect(result).toEqual({ viewId: "mock-view-1" });
    });

    it("should convert JSX Modal to ModalElement in openModal", async () => {
      const h = await withCapturedCommand();
      await h.chat.processSlashCommand(h.adapter, slashCommandEvent({ triggerId: "trigger-123" }));

      const jsxModal = jsx(Modal, {
        callbackId: "jsx_modal",
        title: "JSX Modal",
        children: [jsx(TextInput, { id: "name", label: "Name" })],
      });
      const result = await h.captured[0]?.openModal(jsxModal);

      const [call] = h.adapter.callsOf("openModal");
      expect(call?.args).toEqual([
        "trigger-123",
        expect.objectContaining({ type: "modal", callbackId: "jsx_modal", title: "JSX Modal" }),
        expect.any(String),
      ]);
      expect((call?.args[1] as { children: unknown[] }).children).toEqual([
        expect.objectContaining({ type: "text_input", id: "name", label: "Name" }),
      ]);
      expect(result).toEqual({ viewId: "mock-view-1" });
    });

    it("should return undefined from openModal when triggerId is missing", async () => {
      const { logger, lines } = recordingLogger();
      const h = await withCapturedCommand({ logger });
      await h.chat.processSlashCommand(h.adapter, slashCommandEvent());

      const result = await h.captured[0]?.openModal(emptyModal("test_modal"));

      expect(result).toBeUndefined();
      expect(h.adapter.callsOf("openModal")).toEqual([]);
      expect(lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
        "cannot open a modal: the event carries no trigger id",
      ]);
    });

    it("throws a NotSupportedError from a slash command's openModal when the adapter has no openModal", async () => {
      const h = await createChatHarness();
      // An adapter ported from upstream declares no capabilities and lacks the method.
      const bare = Object.assign(Object.create(h.adapter), { openModal: undefined }) as Adapter;
      const { Chat } = await import("../../src/index.js");
      const chat = new Chat({
        userName: "bot",
        adapters: { mock: bare },
        state: h.state,
        logger: "silent",
      });
      const captured: SlashCommandHandlerEvent<Channel>[] = [];
      chat.onSlashCommand((event) => {
        captured.push(event);
      });
      await chat.processSlashCommand(bare, slashCommandEvent({ triggerId: "trigger-123" }));

      await expect(captured[0]?.openModal(emptyModal("test_modal"))).rejects.toMatchObject({
        code: "NOT_SUPPORTED",
        adapter: "mock",
        feature: "modals",
      });
      await chat.shutdown();
    });

    it("should store channel context when opening modal and provide relatedChannel in modal submit", async () => {
      const h = await withCapturedCommand();
      await h.chat.processSlashCommand(h.adapter, slashCommandEvent({ triggerId: "trigger-123" }));
      await h.captured[0]?.openModal(emptyModal("slash_feedback", "Feedback"));
      const contextId = contextIdOf(h.adapter);
      const submits: SubmitEvent[] = [];
      h.chat.onModalSubmit("slash_feedback", (event) => {
        submits.push(event);
      });

      await h.chat.processModalSubmit(
        h.adapter,
        {
          callbackId: "slash_feedback",
          viewId: "V123",
          values: { message: "Great feedback!" },
          user: submitter(),
          raw: {},
        },
        contextId,
      );

      expect(submits).toHaveLength(1);
      expect(submits[0]?.relatedChannel?.id).toBe(CHANNEL);
      expect(submits[0]?.relatedThread).toBeUndefined();
      expect(submits[0]?.relatedMessage).toBeUndefined();
      expect(submits[0]?.values).toEqual({ message: "Great feedback!" });
      expect(submits[0]?.adapter).toBe(h.adapter);
    });

    it("should allow posting to relatedChannel from modal submit handler", async () => {
      const h = await withCapturedCommand();
      await h.chat.processSlashCommand(h.adapter, slashCommandEvent({ triggerId: "trigger-123" }));
      await h.captured[0]?.openModal(emptyModal("slash_feedback_post", "Feedback"));
      h.chat.onModalSubmit("slash_feedback_post", async (event) => {
        if (event.relatedChannel) {
          await event.relatedChannel.post("Thank you for your feedback!");
        }
        return undefined;
      });

      await h.chat.processModalSubmit(
        h.adapter,
        {
          callbackId: "slash_feedback_post",
          viewId: "V123",
          values: { message: "Great feedback!" },
          user: submitter(),
        },
        contextIdOf(h.adapter),
      );

      expect(h.adapter.posts).toEqual([
        expect.objectContaining({ threadId: CHANNEL, text: "Thank you for your feedback!" }),
      ]);
    });

    it("should provide relatedChannel from action-triggered modal (extracted from thread)", async () => {
      const h = await createChatHarness();
      const actions: ActionHandlerEvent<Thread>[] = [];
      h.chat.onAction("feedback_button", (event) => {
        actions.push(event);
      });
      await h.chat.processAction(
        h.adapter,
        actionEvent({
          actionId: "feedback_button",
          threadId: "mock:C789:1234.5678",
          triggerId: "trigger-action-123",
        }),
      );
      expect(actions).toHaveLength(1);
      await actions[0]?.openModal(emptyModal("action_feedback", "Feedback"));
      const submits: SubmitEvent[] = [];
      h.chat.onModalSubmit("action_feedback", (event) => {
        submits.push(event);
      });

      await h.chat.processModalSubmit(
        h.adapter,
        {
          callbackId: "action_feedback",
          viewId: "V456",
          values: { message: "Button feedback!" },
          user: submitter(),
          raw: {},
        },
        contextIdOf(h.adapter),
      );

      expect(submits).toHaveLength(1);
      expect(submits[0]?.relatedChannel?.id).toBe("mock:C789");
      expect(submits[0]?.relatedThread?.id).toBe("mock:C789:1234.5678");
      // The message that carried the button comes back as a handle the handler can edit.
      expect(submits[0]?.relatedMessage?.id).toBe("msg-1");
      await submits[0]?.relatedMessage?.edit("Thanks, recorded");
      expect(h.adapter.callsOf("editMessage")[0]?.args).toEqual([
        "mock:C789:1234.5678",
        "msg-1",
        "Thanks, recorded",
      ]);
    });
  });

  describe("modal submit", () => {
    it("answers the platform with the first handler's response, so validation errors are shown", async () => {
      const h = await createChatHarness();
      const order: string[] = [];
      h.chat.onModalSubmit(() => {
        order.push("catch-all, no answer");
      });
      h.chat.onModalSubmit("feedback", (event) => {
        order.push("feedback");
        if (!event.values.email?.includes("@")) {
          return { action: "errors", errors: { email: "Enter an email address" } };
        }
        return undefined;
      });
      h.chat.onModalSubmit("feedback", () => {
        order.push("never reached");
      });

      const answer = await h.chat.processModalSubmit(h.adapter, {
        callbackId: "feedback",
        viewId: "V1",
        values: { email: "nope" },
        user: submitter(),
      });

      expect(answer).toEqual({ action: "errors", errors: { email: "Enter an email address" } });
      expect(order).toEqual(["catch-all, no answer", "feedback"]);
    });

    it("resolves undefined when no handler answers, and skips handlers of other callback ids", async () => {
      const h = await createChatHarness();
      const seen: string[] = [];
      h.chat.onModalSubmit(["other", "another"], () => {
        seen.push("other");
        return { action: "close" };
      });

      const answer = await h.chat.processModalSubmit(h.adapter, {
        callbackId: "feedback",
        viewId: "V1",
        values: {},
        user: submitter(),
      });

      expect(answer).toBeUndefined();
      expect(seen).toEqual([]);
    });

    it("logs a handler that throws or answers something malformed, and asks the next one", async () => {
      const { logger, lines } = recordingLogger();
      const h = await createChatHarness({ logger });
      h.chat.onModalSubmit(() => {
        throw new Error("handler bug");
      });
      h.chat.onModalSubmit(() => ({ action: "errors", errors: { email: 42 } }) as never);
      h.chat.onModalSubmit(
        () =>
          ({
            action: "push",
            modal: { ...emptyModal("bad"), children: [{ type: "text_input", label: "No id" }] },
          }) as never,
      );
      h.chat.onModalSubmit(() => ({ action: "update", modal: emptyModal("step_2", "Step 2") }));

      const answer = await h.chat.processModalSubmit(h.adapter, {
        callbackId: "wizard",
        viewId: "V1",
        values: {},
        user: submitter(),
      });

      expect(answer).toEqual({ action: "update", modal: emptyModal("step_2", "Step 2") });
      const failures = lines.filter((line) => line.level === "error");
      expect(failures.map((line) => line.message)).toEqual([
        "modal submit handler failed",
        "modal submit handler failed",
        "modal submit handler failed",
      ]);
      expect(failures[1]?.fields).toMatchObject({
        callbackId: "wizard",
        error: expect.objectContaining({ code: "VALIDATION_FAILED" }),
      });
    });

    it("keeps the modal's context while it stays open with errors, and forgets it once it closes", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-1" }));
      const opened = await h.captured[0]?.openModal(emptyModal("order"));
      const viewId = opened?.viewId ?? "";
      const threads: Array<string | undefined> = [];
      h.chat.onModalSubmit("order", (event) => {
        threads.push(event.relatedThread?.id);
        return event.values.qty === "0"
          ? { action: "errors", errors: { qty: "At least 1" } }
          : undefined;
      });
      const key = `modal-context:mock:${contextIdOf(h.adapter)}`;

      expect(await h.adapter.modals.submit(viewId, { qty: "0" })).toEqual({
        action: "errors",
        errors: { qty: "At least 1" },
      });
      expect(h.adapter.modals.opened[0]?.open).toBe(true);
      expect(await h.state.get(key)).not.toBeNull();

      expect(await h.adapter.modals.submit(viewId, { qty: "2" })).toBeUndefined();
      expect(threads).toEqual([THREAD, THREAD]);
      expect(h.adapter.modals.opened[0]?.open).toBe(false);
      expect(await h.state.get(key)).toBeNull();
    });

    it("gives the submit its related thread on another instance sharing the State", async () => {
      const a = await withCapturedAction();
      await a.chat.processAction(a.adapter, actionEvent({ triggerId: "trigger-1" }));
      await a.captured[0]?.openModal(emptyModal("handover"));
      const contextId = contextIdOf(a.adapter);
      // Instance B: its own Chat and adapter object, the same State.
      const adapterB = createMockAdapter("mock");
      const { Chat } = await import("../../src/index.js");
      const b = new Chat({
        userName: "bot",
        adapters: { mock: adapterB },
        state: a.state,
        logger: "silent",
        clock: a.clock,
      });
      const related: Array<string | undefined> = [];
      b.onModalSubmit("handover", async (event) => {
        related.push(event.relatedThread?.id);
        await event.relatedThread?.post("Submitted on instance B");
      });

      await b.processModalSubmit(
        adapterB,
        { callbackId: "handover", viewId: "mock-view-1", values: {}, user: submitter() },
        contextId,
      );

      expect(related).toEqual([THREAD]);
      expect(adapterB.postedTo(THREAD)).toEqual(["Submitted on instance B"]);
      expect(a.adapter.postedTo(THREAD)).toEqual([]);
    });

    it("keeps a modal's context for MODAL_CONTEXT_TTL_MS, then the submit has no related thread", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-1" }));
      const opened = await h.captured[0]?.openModal(emptyModal("late"));
      const related: Array<string | undefined> = [];
      h.chat.onModalSubmit("late", (event) => {
        related.push(event.relatedThread?.id);
      });

      await h.clock.advance(MODAL_CONTEXT_TTL_MS + 1);
      await h.adapter.modals.submit(opened?.viewId ?? "", {});

      expect(related).toEqual([undefined]);
    });
  });

  describe("modal close", () => {
    it("runs every matching close handler with the modal's origin, even after one throws", async () => {
      const { logger, lines } = recordingLogger();
      const h = await withCapturedAction({ logger });
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-1" }));
      const opened = await h.captured[0]?.openModal({
        ...emptyModal("survey"),
        notifyOnClose: true,
      });
      const closes: ChatModalCloseEvent[] = [];
      h.chat.onModalClose("survey", () => {
        throw new Error("close bug");
      });
      h.chat.onModalClose((event) => {
        closes.push(event);
      });
      h.chat.onModalClose("other", (event) => {
        closes.push(event);
      });

      expect(await h.adapter.modals.close(opened?.viewId ?? "")).toBe(true);

      expect(closes).toHaveLength(1);
      expect(closes[0]).toMatchObject({ callbackId: "survey", viewId: "mock-view-1" });
      expect(closes[0]?.relatedThread?.id).toBe(THREAD);
      expect(lines.filter((line) => line.level === "error").map((line) => line.message)).toEqual([
        "modal close handler failed",
      ]);
      expect(await h.state.get(`modal-context:mock:${contextIdOf(h.adapter)}`)).toBeNull();
    });

    it("tells the bot of a close only for a modal opened with notifyOnClose, as Slack does", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-1" }));
      const opened = await h.captured[0]?.openModal(emptyModal("quiet"));
      let closes = 0;
      h.chat.onModalClose(() => {
        closes += 1;
      });

      expect(await h.adapter.modals.close(opened?.viewId ?? "")).toBe(false);
      expect(closes).toBe(0);
    });
  });
  describe("mock platform interactions", () => {
    it("clicks and commands carry fresh trigger ids, so handlers can open modals from them", async () => {
      const h = await createChatHarness();
      h.chat.onAction("edit", async (event) => {
        await event.openModal(emptyModal("edit_form"));
      });
      h.chat.onSlashCommand("/report", async (event) => {
        await event.openModal(emptyModal("report_form"));
      });

      const first = await h.adapter.modals.click({ actionId: "edit", threadId: THREAD });
      const second = await h.adapter.modals.command({ command: "/report", channelId: CHANNEL });

      expect([first, second]).toEqual(["mock-trigger-1", "mock-trigger-2"]);
      expect(
        h.adapter.modals.opened.map((view) => [view.triggerId, view.modal.callbackId, view.open]),
      ).toEqual([
        ["mock-trigger-1", "edit_form", true],
        ["mock-trigger-2", "report_form", true],
      ]);
    });

    it("applies an update answer to the open view and stacks a pushed one", async () => {
      const h = await withCapturedAction();
      await h.chat.processAction(h.adapter, actionEvent({ triggerId: "trigger-1" }));
      const opened = await h.captured[0]?.openModal(emptyModal("wizard", "Step 1"));
      h.chat.onModalSubmit("wizard", (event) =>
        event.values.step === "1"
          ? { action: "update", modal: emptyModal("wizard", "Step 2") }
          : { action: "push", modal: emptyModal("details", "Details") },
      );
      const viewId = opened?.viewId ?? "";

      await h.adapter.modals.submit(viewId, { step: "1" });
      await h.adapter.modals.submit(viewId, { step: "2" });

      expect(h.adapter.modals.opened.map((view) => [view.viewId, view.modal.title])).toEqual([
        ["mock-view-1", "Step 2"],
        ["mock-view-2", "Details"],
      ]);
      await expect(h.adapter.modals.submit("mock-view-9", {})).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    });
  });
  describe("docs/interactions.md", () => {
    it("runs the feedback walkthrough: command, modal, validation errors, then a thank-you", async () => {
      const h = await createChatHarness();
      const bot = h.chat;
      bot.onSlashCommand("/feedback", async (event) => {
        await event.openModal(
          Modal({
            callbackId: "feedback",
            title: "Send feedback",
            children: [
              TextInput({ id: "email", label: "Email" }),
              TextInput({ id: "text", label: "Feedback" }),
            ],
          }),
        );
      });
      bot.onModalSubmit("feedback", async (event) => {
        if (!event.values.email?.includes("@")) {
          return { action: "errors", errors: { email: "Enter an email address" } };
        }
        await event.relatedChannel?.post(`Thanks, ${event.user.userName}!`);
      });
      bot.onOptionsLoad("assignee", (event) =>
        [{ name: "Maria", id: "u1" }]
          .filter((person) => person.name.toLowerCase().startsWith(event.query))
          .map((person) => ({ label: person.name, value: person.id })),
      );

      await h.adapter.modals.command({ command: "/feedback", channelId: "mock:C1" });
      const [view] = h.adapter.modals.opened;
      const viewId = view?.viewId ?? "";

      expect(await h.adapter.modals.submit(viewId, { email: "nope" })).toEqual({
        action: "errors",
        errors: { email: "Enter an email address" },
      });
      expect(
        await h.adapter.modals.submit(viewId, { email: "a@b.example", text: "Great" }),
      ).toBeUndefined();
      expect(h.adapter.posts.map((post) => [post.threadId, post.text])).toEqual([
        ["mock:C1", "Thanks, user!"],
      ]);
      expect(await h.adapter.modals.loadOptions("assignee", "mar")).toEqual([
        { label: "Maria", value: "u1" },
      ]);
      // An external select in a modal is what asks for those options.
      expect(ExternalSelect({ id: "assignee", label: "Assignee" })).toMatchObject({
        type: "external_select",
        id: "assignee",
      });
    });
  });
});
