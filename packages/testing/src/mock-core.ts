import {
  type AdapterCapabilities,
  type AdapterFeature,
  type AdapterPostableMessage,
  NotSupportedError,
  type RawMessage,
  ValidationError,
} from "@baton/core";
import type { MockMethod } from "./mock-call.js";
import { requireMockCapability } from "./mock-capabilities.js";
import { assertOwnMockId } from "./mock-own-id.js";
import type { MockRecorder } from "./mock-recorder.js";

/**
 * What the mock adapter's outbound methods share: its name and capabilities, the call log and
 * the message id counter. Each concern (messaging, conversations, scheduling, channels, …) is a
 * module of functions over this, so the adapter class stays a list of one-line methods.
 */
export class MockCore {
  private sentCount = 0;

  constructor(
    readonly name: string,
    readonly capabilities: AdapterCapabilities,
    readonly recorder: MockRecorder,
  ) {}

  /**
   * Records one outbound call and runs it: the id must be this adapter's (see `assertOwnMockId`)
   * and `feature`, when given, must be switched on — else the call is recorded and rejected (a
   * `ValidationError`, a `NotSupportedError`) before `run`.
   */
  call<T>(
    method: MockMethod,
    id: string,
    args: unknown[],
    feature: AdapterFeature | undefined,
    run: () => T | Promise<T>,
  ): Promise<T> {
    return this.recorder.record(
      method,
      id,
      args,
      () => {
        assertOwnMockId(this.name, method, id);
        if (feature !== undefined) requireMockCapability(this.name, this.capabilities, feature);
      },
      run,
    );
  }

  /** The next message id, `mock-msg-<n>`, as a platform answers a post. */
  sent(threadId: string): RawMessage {
    this.sentCount += 1;
    return { id: `mock-msg-${this.sentCount}`, threadId };
  }

  /**
   * Checks a message as a platform would: one of the postable kinds, non-empty; a card only when
   * `cards` is on, files only when `files` is on (`NotSupportedError` otherwise), since the
   * runtime is meant to have taken its fallback before.
   */
  checkPostable(message: unknown, step: string): asserts message is AdapterPostableMessage {
    const record = message as Record<string, unknown> | null;
    const isCard =
      typeof record === "object" &&
      record !== null &&
      (record.type === "card" ||
        (typeof record.card === "object" && (record.card as { type?: unknown })?.type === "card"));
    const ok =
      (typeof message === "string" && message !== "") ||
      isCard ||
      (typeof record === "object" &&
        record !== null &&
        (isText(record.markdown) ||
          isText(record.raw) ||
          (record.ast as { type?: unknown } | undefined)?.type === "root"));
    if (!ok) {
      throw new ValidationError(
        "message must be a non-empty string, { markdown }, { ast }, { raw } or a card",
        { step },
      );
    }
    if (isCard && !this.capabilities.cards) throw new NotSupportedError(this.name, "cards");
    const files = record?.files;
    if (Array.isArray(files) && files.length > 0 && !this.capabilities.files) {
      throw new NotSupportedError(this.name, "files");
    }
  }

  /** Restarts message ids at 1. */
  resetIds(): void {
    this.sentCount = 0;
  }
}

function isText(value: unknown): boolean {
  return typeof value === "string" && value !== "";
}
