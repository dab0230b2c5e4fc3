import type { Adapter } from "../contracts/adapter.js";
import type { QueueEntry } from "../contracts/state.js";
import type { TurnWrite } from "../contracts/turn-state.js";
import type { JsonValue } from "../model/json.js";
import { Message, type SerializedMessage } from "../model/message.js";
import type { Delivery, StrategyContext } from "./strategy.js";

/** The JSON a queue entry carries: enough to rebuild the delivery in any process. */
export interface QueuedMessage {
  readonly deliveryKey: string;
  readonly adapter: string;
  readonly threadId: string;
  readonly message: SerializedMessage;
  /** The delivery's tenant, so a drain in any process runs it as a turn of its installation. */
  readonly tenant?: string;
}

/** A queue entry brought back to life. */
export interface RehydratedEntry {
  readonly deliveryKey: string;
  readonly adapter: Adapter;
  readonly threadId: string;
  readonly message: Message;
  readonly enqueuedAt: number;
  readonly expiresAt: number;
  readonly tenant: string | undefined;
}

/** The queue entry for `delivery`, stamped with `nowMs` and living `entryTtlMs`. */
export function toQueueEntry(delivery: Delivery, nowMs: number, entryTtlMs: number): QueueEntry {
  const value: QueuedMessage = {
    deliveryKey: delivery.key,
    adapter: delivery.adapter.name,
    threadId: delivery.threadId,
    message: delivery.message.toJSON(),
    ...(delivery.tenant === undefined ? {} : { tenant: delivery.tenant }),
  };
  return { value: value as unknown as JsonValue, enqueuedAt: nowMs, expiresAt: nowMs + entryTtlMs };
}

/** The delivery key of an entry, without rehydrating it; undefined for a foreign entry. */
export function deliveryKeyOf(entry: QueueEntry): string | undefined {
  const value = entry.value as Partial<QueuedMessage> | null;
  return typeof value?.deliveryKey === "string" ? value.deliveryKey : undefined;
}

/**
 * Rebuilds a queued message: dates come back as dates, the entry keeps its own thread id, and
 * attachments get their fetchers back through the adapter's `rehydrateAttachment`. Throws a
 * `ValidationError` for a corrupt entry, or when its adapter is not registered here.
 */
export function rehydrateEntry(
  entry: QueueEntry,
  adapterNamed: (name: string) => Adapter | undefined,
): RehydratedEntry {
  const value = entry.value as unknown as QueuedMessage;
  const adapter = adapterNamed(value?.adapter);
  const parsed = Message.fromJSON(value?.message);
  if (!adapter) {
    throw new Error(`no adapter named ${JSON.stringify(value?.adapter)} is registered`);
  }
  const rehydrate = adapter.rehydrateAttachment?.bind(adapter);
  // Entries are JSON, so no attachment arrives with a fetcher: each goes through the adapter.
  const attachments = parsed.attachments.map((attachment) =>
    rehydrate ? rehydrate(attachment) : attachment,
  );
  const message = new Message({ ...parsed, threadId: value.threadId, attachments });
  return {
    deliveryKey: value.deliveryKey,
    adapter,
    threadId: value.threadId,
    message,
    enqueuedAt: entry.enqueuedAt,
    expiresAt: entry.expiresAt,
    tenant: typeof value.tenant === "string" ? value.tenant : undefined,
  };
}

/**
 * The turn record a delivery's own run writes with its lock (durable turns): the delivery as a
 * queue entry, so any instance can rebuild it, stamped and living like a queued one. `undefined`
 * without durable turns: nothing is serialized on that path.
 */
export function turnWriteOf(
  context: Pick<StrategyContext, "durableTurns" | "clock" | "settings">,
  delivery: Delivery,
): TurnWrite | undefined {
  if (!context.durableTurns) return undefined;
  return turnOf(delivery, context.clock.now(), context.settings.queueEntryTtlMs);
}

/** The turn record of one delivery's run started at `startedAt`; see {@link turnWriteOf}. */
export function turnOf(delivery: Delivery, startedAt: number, entryTtlMs: number): TurnWrite {
  return { entries: [toQueueEntry(delivery, startedAt, entryTtlMs)], startedAt };
}
