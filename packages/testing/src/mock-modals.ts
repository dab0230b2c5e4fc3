import {
  type Adapter,
  type Author,
  type ChatHost,
  type InteractionOptions,
  type ModalResponse,
  type OptionsLoadResult,
  ValidationError,
} from "@baton/core";
import { requireMockCapability } from "./mock-capabilities.js";
import type { MockCore } from "./mock-core.js";
import { createTestAuthor } from "./test-message.js";

/** The modal type `openModal` takes, as the core's Adapter contract declares it. */
type ModalElement = Parameters<NonNullable<Adapter["openModal"]>>[1];

/**
 * One modal the mock platform shows, from `openModal` on. `modal` is the view shown now (an
 * `update` answer replaces it); `open` turns false once the user closed it or a submit's answer
 * closed it.
 */
export interface MockOpenedModal {
  readonly viewId: string;
  readonly triggerId: string;
  readonly contextId: string | undefined;
  readonly modal: ModalElement;
  readonly open: boolean;
}

/** Who acts in a simulated interaction (default: `U_USER`), and how the host is called. */
export interface MockInteractionOptions extends InteractionOptions {
  user?: Partial<Author>;
}

/** An action as `clickMockAction` sends it; `triggerId` defaults to a fresh `mock-trigger-<n>`. */
export interface MockActionInput {
  actionId: string;
  threadId: string;
  messageId?: string;
  value?: string;
  triggerId?: string;
}

/** A slash command as `runMockSlashCommand` sends it; `triggerId` as for actions. */
export interface MockSlashCommandInput {
  command: string;
  channelId: string;
  text?: string;
  triggerId?: string;
}

interface ViewRecord {
  viewId: string;
  triggerId: string;
  contextId: string | undefined;
  modal: ModalElement;
  open: boolean;
}

/**
 * The modal side of the mock platform: `openModal` shows a view (`mock-view-<n>`); a test then
 * plays the user — submits it, closes it, types into a dynamic select, clicks a button, runs a
 * command — and each goes to the Chat through its `ChatHost` method, as a platform webhook would.
 * Like Slack, a submit answered with `errors` keeps the view open, `update` replaces it, `push`
 * stacks a new view, and a close reaches the bot only for a modal opened with `notifyOnClose`.
 */
export class MockModals {
  private views: ViewRecord[] = [];
  private triggers = 0;

  constructor(
    private readonly core: MockCore,
    private readonly adapter: () => Adapter,
    private readonly host: () => ChatHost | undefined,
  ) {}

  /** `openModal` (capability `modals`): records the call and shows the view. */
  open(triggerId: string, modal: ModalElement, contextId?: string): Promise<{ viewId: string }> {
    const args = contextId === undefined ? [triggerId, modal] : [triggerId, modal, contextId];
    const check = () => {
      requireMockCapability(this.core.name, this.core.capabilities, "modals");
      if (typeof triggerId !== "string" || triggerId === "") {
        throw new ValidationError("triggerId must be a non-empty string", { step: "open modal" });
      }
      if (modal?.type !== "modal") {
        throw new ValidationError('modal must be a modal element (type "modal")', {
          step: "open modal",
        });
      }
    };
    return this.core.recorder.record("openModal", triggerId, args, check, () => ({
      viewId: this.show(triggerId, modal, contextId).viewId,
    }));
  }

  /** Every view shown so far, oldest first, as frozen copies. */
  get opened(): readonly MockOpenedModal[] {
    return Object.freeze(this.views.map((view) => Object.freeze({ ...view })));
  }

  /**
   * The user submits view `viewId` with `values`: resolves with what the Chat answered (the
   * platform's reply to the submit) and applies it to the view.
   */
  async submit(
    viewId: string,
    values: Record<string, string>,
    options: MockInteractionOptions = {},
  ): Promise<ModalResponse | undefined> {
    const view = this.openView(viewId, "submit modal");
    const { user, ...hostOptions } = options;
    const event = {
      callbackId: view.modal.callbackId,
      viewId,
      values: { ...values },
      user: createTestAuthor(user),
      ...privateMetadataOf(view.modal),
    };
    const answer = await this.requireHost("submit modal").processModalSubmit(
      this.adapter(),
      event,
      view.contextId,
      hostOptions,
    );
    if (answer === undefined || answer.action === "close") view.open = false;
    else if (answer.action === "update") view.modal = answer.modal;
    else if (answer.action === "push") this.show(view.triggerId, answer.modal, view.contextId);
    return answer;
  }

  /**
   * The user closes view `viewId`. The Chat hears of it only when the modal asked for it
   * (`notifyOnClose`), as on Slack; resolves true when it was told.
   */
  async close(viewId: string, options: MockInteractionOptions = {}): Promise<boolean> {
    const view = this.openView(viewId, "close modal");
    view.open = false;
    if (view.modal.notifyOnClose !== true) return false;
    const { user, ...hostOptions } = options;
    const event = {
      callbackId: view.modal.callbackId,
      viewId,
      user: createTestAuthor(user),
      ...privateMetadataOf(view.modal),
    };
    await this.requireHost("close modal").processModalClose(
      this.adapter(),
      event,
      view.contextId,
      hostOptions,
    );
    return true;
  }

  /** The user types `query` into the dynamic select `actionId`; resolves with its options. */
  loadOptions(
    actionId: string,
    query: string,
    options: MockInteractionOptions = {},
  ): Promise<OptionsLoadResult | undefined> {
    const { user, ...hostOptions } = options;
    const event = { actionId, query, user: createTestAuthor(user) };
    return this.requireHost("load options").processOptionsLoad(this.adapter(), event, hostOptions);
  }

  /** The user clicks a button: an action with a fresh trigger id unless one is given. */
  async click(input: MockActionInput, options: MockInteractionOptions = {}): Promise<string> {
    const { user, ...hostOptions } = options;
    const triggerId = input.triggerId ?? this.nextTrigger();
    const event = {
      actionId: input.actionId,
      threadId: input.threadId,
      messageId: input.messageId ?? "",
      ...(input.value === undefined ? {} : { value: input.value }),
      triggerId,
      user: createTestAuthor(user),
    };
    await this.requireHost("click action").processAction(this.adapter(), event, hostOptions);
    return triggerId;
  }

  /** The user runs a slash command, with a fresh trigger id unless one is given. */
  async command(
    input: MockSlashCommandInput,
    options: MockInteractionOptions = {},
  ): Promise<string> {
    const { user, ...hostOptions } = options;
    const triggerId = input.triggerId ?? this.nextTrigger();
    const event = {
      command: input.command,
      text: input.text ?? "",
      channelId: input.channelId,
      triggerId,
      user: createTestAuthor(user),
    };
    await this.requireHost("run slash command").processSlashCommand(
      this.adapter(),
      event,
      hostOptions,
    );
    return triggerId;
  }

  /** Forgets every view; trigger and view numbers restart at 1. */
  clear(): void {
    this.views = [];
    this.triggers = 0;
  }

  private show(triggerId: string, modal: ModalElement, contextId: string | undefined): ViewRecord {
    const view = {
      viewId: `mock-view-${this.views.length + 1}`,
      triggerId,
      contextId,
      modal,
      open: true,
    };
    this.views.push(view);
    return view;
  }

  private openView(viewId: string, step: string): ViewRecord {
    const view = this.views.find((candidate) => candidate.viewId === viewId);
    if (!view)
      throw new ValidationError(`no modal view ${JSON.stringify(viewId)} was opened`, { step });
    if (!view.open) throw new ValidationError(`modal view ${viewId} is already closed`, { step });
    return view;
  }

  private requireHost(step: string): ChatHost {
    const host = this.host();
    if (!host) {
      throw new ValidationError("the mock adapter is not initialized (no Chat yet)", { step });
    }
    return host;
  }

  private nextTrigger(): string {
    this.triggers += 1;
    return `mock-trigger-${this.triggers}`;
  }
}

function privateMetadataOf(modal: ModalElement): { privateMetadata?: string } {
  return typeof modal.privateMetadata === "string"
    ? { privateMetadata: modal.privateMetadata }
    : {};
}
