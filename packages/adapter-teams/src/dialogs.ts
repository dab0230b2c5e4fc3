import { type Clock, type ModalElement, ValidationError } from "@baton/core";

/** A modal a handler opened for a pending task/fetch, with the context id to bring back. */
export interface OpenedDialog {
  readonly modal: ModalElement;
  readonly contextId: string | undefined;
}

interface Pending {
  resolve(opened: OpenedDialog | undefined): void;
}

/**
 * The task/fetch invokes waiting for a handler to call `openModal`. Teams shows a dialog only as
 * the answer to its task/fetch invoke, so the webhook holds that answer until the handler opens
 * a modal with the trigger id, finishes without one, or `timeoutMs` pass (Teams' own deadline is
 * a few seconds).
 */
export class PendingDialogs {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
  ) {}

  /** Registers `triggerId`; resolves with the opened modal, or undefined (none, or too late). */
  expect(triggerId: string, handlerDone: Promise<unknown>): Promise<OpenedDialog | undefined> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => finish(undefined), this.timeoutMs);
      const finish = (opened: OpenedDialog | undefined) => {
        if (!this.pending.has(triggerId)) return;
        this.pending.delete(triggerId);
        this.clock.clearTimeout(timer);
        resolve(opened);
      };
      this.pending.set(triggerId, { resolve: finish });
      handlerDone.then(
        () => finish(undefined),
        () => finish(undefined),
      );
    });
  }

  /** Answers the pending task/fetch of `triggerId` with `modal`; an unknown trigger is refused. */
  open(triggerId: string, modal: ModalElement, contextId: string | undefined): { viewId: string } {
    const waiting = this.pending.get(triggerId);
    if (waiting === undefined) {
      throw new ValidationError(
        `teams: no dialog is waiting for trigger ${triggerId}; open the modal from the action ` +
          "handler of a modal button, within the dialog deadline",
        { step: "open teams dialog" },
      );
    }
    waiting.resolve({ modal, contextId });
    return { viewId: triggerId };
  }
}
