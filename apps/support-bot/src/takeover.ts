import {
  type Chat,
  type Clock,
  type HoldHandle,
  type HoldLapsedEvent,
  type JsonValue,
  type Logger,
  parseHoldHandle,
  type Thread,
} from "@baton/core";
import { replies } from "./replies.js";

/**
 * Who holds a conversation, as the support bot keeps it. `hold` is the serialized `HoldHandle`:
 * any process with a `Chat` on the same State can hand the conversation back with it.
 */
export interface HoldRecord {
  readonly hold: string;
  readonly agentId: string;
  readonly agentName: string;
}

/** The agent taking a conversation over. */
export interface Agent {
  readonly userId: string;
  readonly name: string;
}

/** What `take` did: took the hold, found another agent's, or found the assistant mid-answer. */
export type TakeResult =
  | { readonly outcome: "taken"; readonly handle: HoldHandle }
  | { readonly outcome: "held"; readonly by: string }
  | { readonly outcome: "busy" };

/**
 * What `handBack` did. `already-ended`: the hold had lapsed, or another hand-back released it
 * first; either way the assistant was back already.
 */
export type HandBackResult = "handed-back" | "already-ended" | "not-held";

/** What `extend` did. */
export type ExtendResult =
  | { readonly outcome: "extended"; readonly until: number }
  | {
      readonly outcome: "already-ended" | "not-held";
    };

/** What {@link Takeover} needs. */
export interface TakeoverOptions {
  readonly chat: Chat;
  /** How long a hold lasts unless extended; its expiry hands the conversation back. */
  readonly holdTtlMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * How long a record outlives its hold: the lapse notice (`chat.onHoldLapsed`, one sweep after
 * the expiry) reads it, and a late `/agent release` finds it to say the hold had ended.
 */
const RECORD_GRACE_MS = 24 * 60 * 60_000;

/**
 * The State key of a conversation's {@link HoldRecord}, in the chat-level key-value namespace.
 * Not thread state: handlers read thread state freely (and real bots hand it to their model),
 * so the hold's token — the proof of the right to release — stays out of it, as Baton's own
 * holds do (docs/coordination.md, "Nothing leaks").
 */
export function holdRecordKey(threadId: string): string {
  return `support:hold:${threadId}`;
}

/** Marks that the end of the hold with this fence was announced; fences are never reused. */
function announcedKey(fence: number): string {
  return `support:hold-ended:${fence}`;
}

/**
 * Human takeover on top of Baton's holds: take a conversation's thread lock for an agent, keep
 * the handle where any instance finds it, and hand the conversation back — by release or by
 * expiry — telling the customer exactly once.
 */
export class Takeover {
  constructor(private readonly options: TakeoverOptions) {}

  /** The record of the agent holding `threadId`, or `null`. */
  async record(threadId: string): Promise<HoldRecord | null> {
    const value = await this.options.chat.getState().get(holdRecordKey(threadId));
    if (value === null || isHoldRecord(value)) return value;
    // Someone else wrote this key; treating it as "not held" lets the hold lapse normally.
    this.options.logger.warn("ignoring a malformed hold record", { threadId });
    return null;
  }

  /**
   * Takes a hold on `thread` for `agent`. Called from a handler running on that thread, the
   * run's own lock becomes the hold, so no message can slip in between; from anywhere else the
   * lock is acquired and a running answer makes it `busy`.
   */
  async take(thread: Thread, agent: Agent): Promise<TakeResult> {
    const handle = await thread.hold({ ttlMs: this.options.holdTtlMs, owner: agent.userId });
    if (!handle) {
      const current = await this.record(thread.id);
      return current ? { outcome: "held", by: current.agentName } : { outcome: "busy" };
    }
    const record = { hold: JSON.stringify(handle), agentId: agent.userId, agentName: agent.name };
    try {
      await this.write(thread.id, record);
    } catch (error) {
      // Without its record nobody could hand the hold back before it lapses: give it up now.
      await this.options.chat.releaseHold(handle).catch(() => false);
      throw error;
    }
    this.options.logger.info("agent took a conversation over", {
      threadId: thread.id,
      agentId: agent.userId,
      fence: handle.fence,
    });
    return { outcome: "taken", handle };
  }

  /**
   * Hands `threadId` back to the assistant, from any process: tells the customer, then releases
   * the hold, after which this process answers what the customer wrote meanwhile.
   */
  async handBack(threadId: string): Promise<HandBackResult> {
    const record = await this.record(threadId);
    if (!record) return "not-held";
    // Forgotten before the release: the run the release starts must not take it for a lapse.
    await this.options.chat.getState().delete(holdRecordKey(threadId));
    // Announced while the hold still keeps the assistant out, so "back" comes before its answer.
    await this.announceEnd(threadId, record, replies.assistantBack);
    const released = await this.options.chat.releaseHold(record.hold);
    this.options.logger.info("conversation handed back", { threadId, released });
    return released ? "handed-back" : "already-ended";
  }

  /** Moves the hold's expiry to a full term from now; never revives a lapsed hold. */
  async extend(threadId: string): Promise<ExtendResult> {
    const record = await this.record(threadId);
    if (!record) return { outcome: "not-held" };
    const { chat, clock, holdTtlMs } = this.options;
    const sentAtMs = clock.now();
    if (!(await chat.extendHold(record.hold, holdTtlMs))) return { outcome: "already-ended" };
    // The extend applied no earlier than it was sent, so the hold lasts at least until then.
    const until = sentAtMs + holdTtlMs;
    const handle = { ...parseHoldHandle(record.hold, "extend hold"), expiresAt: until };
    await this.write(threadId, { ...record, hold: JSON.stringify(handle) });
    return { outcome: "extended", until };
  }

  /**
   * Handles `chat.onHoldLapsed`: the agent's page died and the hold expired. Baton runs this on
   * one instance, before that sweep drains what the customer wrote, so the customer hears the
   * assistant is back before its answer. A record of a newer hold is left alone.
   */
  async noticeLapsed(event: HoldLapsedEvent): Promise<void> {
    const record = await this.record(event.threadId);
    if (!record || parseHoldHandle(record.hold, "notice lapse").fence !== event.fence) return;
    await this.options.chat.getState().delete(holdRecordKey(event.threadId));
    this.options.logger.info("an agent's hold lapsed; the assistant is back", {
      threadId: event.threadId,
      agentId: record.agentId,
    });
    await this.announceEnd(event.threadId, record, replies.holdLapsed);
  }

  private write(threadId: string, record: HoldRecord): Promise<void> {
    const ttlMs = this.options.holdTtlMs + RECORD_GRACE_MS;
    return this.options.chat.getState().set(holdRecordKey(threadId), { ...record }, ttlMs);
  }

  /**
   * Posts `text` once per hold. Two hand-backs racing, or a hand-back racing the lapse notice,
   * can both find the record (each deletes it, but neither delete says whether it removed it),
   * so an atomic mark keyed by the hold's fence decides who speaks.
   */
  private async announceEnd(threadId: string, record: HoldRecord, text: string): Promise<void> {
    const { fence } = parseHoldHandle(record.hold, "announce end of hold");
    const state = this.options.chat.getState();
    if (!(await state.setIfNotExists(announcedKey(fence), true, RECORD_GRACE_MS))) return;
    try {
      await this.options.chat.thread(threadId).post(text);
    } catch (error) {
      // A notice the platform refused must not stop the hand-back or the answer after it.
      this.options.logger.warn("could not announce the end of a hold", { threadId, error });
    }
  }
}

function isHoldRecord(value: JsonValue): value is HoldRecord & { [key: string]: JsonValue } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as { [key: string]: JsonValue | undefined };
  return (
    typeof record.hold === "string" &&
    typeof record.agentId === "string" &&
    typeof record.agentName === "string"
  );
}
