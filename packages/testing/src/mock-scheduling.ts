import {
  AdapterError,
  type AdapterPostableMessage,
  type Clock,
  type ScheduledMessage,
  type ScheduleOptions,
  ValidationError,
} from "@baton/core";
import { cloneArg } from "./mock-call.js";
import type { MockCore } from "./mock-core.js";

/** A post the mock adapter holds for later, as `adapter.scheduled` lists it. */
export interface MockScheduledPost {
  readonly scheduledMessageId: string;
  readonly threadId: string;
  readonly message: AdapterPostableMessage;
  readonly postAt: Date;
}

/**
 * The mock's scheduled posts. `scheduleMessage` (capability `scheduling`) keeps a post until its
 * `cancel()`; nothing is ever posted by itself, so a test reads `scheduled` to see what is due.
 */
export class MockSchedule {
  private pending = new Map<string, MockScheduledPost>();
  private count = 0;

  constructor(private readonly clock: Pick<Clock, "now">) {}

  /**
   * Records the call and keeps the post. A `ValidationError` when `postAt` is not a valid date
   * in the future of the adapter's clock.
   */
  schedule(
    core: MockCore,
    threadId: string,
    message: AdapterPostableMessage,
    options: ScheduleOptions,
  ): Promise<ScheduledMessage> {
    const args = [threadId, message, options];
    return core.call("scheduleMessage", threadId, args, "scheduling", () => {
      const step = "schedule message";
      core.checkPostable(message, step);
      const postAt = options?.postAt;
      if (!(postAt instanceof Date) || Number.isNaN(postAt.getTime())) {
        throw new ValidationError("postAt must be a valid Date", { step });
      }
      if (postAt.getTime() <= this.clock.now()) {
        throw new ValidationError("postAt must lie in the future", { step });
      }
      this.count += 1;
      const scheduledMessageId = `mock-scheduled-${this.count}`;
      const post = Object.freeze({
        scheduledMessageId,
        threadId,
        message: cloneArg(message) as AdapterPostableMessage,
        postAt,
      });
      this.pending.set(scheduledMessageId, post);
      return {
        scheduledMessageId,
        channelId: channelOf(threadId),
        postAt,
        raw: { scheduledMessageId },
        cancel: async () => {
          if (!this.pending.delete(scheduledMessageId)) {
            throw new AdapterError(core.name, `scheduled message ${scheduledMessageId} is gone`, {
              step: "cancel scheduled message",
            });
          }
        },
      };
    });
  }

  /** The posts not cancelled yet, in scheduling order. */
  list(): readonly MockScheduledPost[] {
    return Object.freeze([...this.pending.values()]);
  }

  clear(): void {
    this.pending = new Map();
    this.count = 0;
  }
}

/** `{name}:{channel}` of a thread id or a channel id. */
function channelOf(id: string): string {
  return id.split(":").slice(0, 2).join(":");
}
