import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";

/** How long the origin of an opened modal is kept for its submit or close: one day, upstream's value. */
export const MODAL_CONTEXT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Where a modal was opened from, stored in the State under its context id so that any instance
 * receiving the submit can give the handler the thread, message and channel back. Plain ids, so
 * the record stays valid JSON on every backend.
 */
export interface ModalContextRecord {
  readonly threadId?: string;
  readonly messageId?: string;
  readonly channelId?: string;
  /** The modal's `callbackUrl`, kept for the submit. */
  readonly callbackUrl?: string;
}

/** The State key of a modal context: `modal-context:{adapter}:{contextId}`, as upstream. */
export function modalContextKey(adapterName: string, contextId: string): string {
  return `modal-context:${adapterName}:${contextId}`;
}

/** A fresh context id: a random UUID, unguessable so a forged submit cannot borrow a context. */
export function newContextId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * The stored and looked-up modal contexts of one Chat. A failed write is logged and the modal
 * still opens — without its context its submit handler sees no related thread, which is better
 * than no modal at all; a failed read is logged the same way.
 */
export class ModalContexts {
  constructor(
    private readonly state: StateAdapter,
    private readonly logger: Logger,
  ) {}

  async store(adapterName: string, contextId: string, record: ModalContextRecord): Promise<void> {
    try {
      await this.state.set(
        modalContextKey(adapterName, contextId),
        compact(record),
        MODAL_CONTEXT_TTL_MS,
      );
    } catch (error) {
      this.logger.error("storing a modal's context failed", { contextId, error });
    }
  }

  /** The record for `contextId`, or `undefined` when there is none (never stored, expired). */
  async find(
    adapterName: string,
    contextId: string | undefined,
  ): Promise<ModalContextRecord | undefined> {
    if (typeof contextId !== "string" || contextId === "") return undefined;
    try {
      const stored = await this.state.get(modalContextKey(adapterName, contextId));
      return isRecord(stored) ? (stored as ModalContextRecord) : undefined;
    } catch (error) {
      this.logger.error("reading a modal's context failed", { contextId, error });
      return undefined;
    }
  }

  /**
   * Forgets the context once the modal is gone. Unlike upstream, which deletes it at the first
   * submit, a submit answered with validation errors (or an update, or a push) keeps it, since
   * the same modal is submitted again.
   */
  async forget(adapterName: string, contextId: string | undefined): Promise<void> {
    if (typeof contextId !== "string" || contextId === "") return;
    try {
      await this.state.delete(modalContextKey(adapterName, contextId));
    } catch (error) {
      // The TTL removes it anyway.
      this.logger.warn("deleting a modal's context failed", { contextId, error });
    }
  }
}

function compact(record: ModalContextRecord): Record<string, string> {
  const stored: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === "string" && value !== "") stored[key] = value;
  }
  return stored;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
