import type { StateAdapter } from "../contracts/state.js";
import type { JsonValue } from "../model/json.js";

/**
 * What the State knows about a hold besides its lock (docs/coordination.md, "Hold records"):
 * who holds it and until when, so that the holder's own messages pass it, messages queued
 * behind it live as long as it, and its lapse is noticed by some instance exactly once. The
 * token is never stored here: a record proves nothing, it only describes.
 */
export interface HoldRecord {
  readonly key: string;
  readonly fence: number;
  readonly threadId: string;
  /** Epoch ms the hold was taken (or a run's lock adopted as it). */
  readonly takenAt: number;
  /** Epoch ms the hold lasts until, as of its last take or extend; on release the release time. */
  readonly expiresAt: number;
  readonly owner?: string;
  /** The owner's messages pass the hold. */
  readonly ownerPasses?: boolean;
}

/** An event the bot can act on: a hold ended by expiry, nobody released it. */
export interface HoldLapsedEvent {
  /** The thread the hold was taken for. */
  readonly threadId: string;
  /** The lock key that was held. */
  readonly key: string;
  /** The lapsed hold's fence: unique per hold, so it names the hold. */
  readonly fence: number;
  /** The owner label given to `thread.hold`, when there was one. */
  readonly owner?: string;
  /** Epoch ms the hold lapsed at (its last known expiry). */
  readonly expiredAt: number;
}

/** Handles a lapsed hold; runs in exactly one instance per hold. */
export type HoldLapsedHandler = (event: HoldLapsedEvent) => void | Promise<void>;

/**
 * How long a record stays after its hold's expiry: the window in which a sweep still notices
 * the lapse (a sweep runs every `sweepIntervalMs`, so a day is generous) and in which entries
 * queued behind it are still judged by it.
 */
export const HOLD_RECORD_GRACE_MS = 24 * 60 * 60_000;

/** The most holds the index remembers; older ones are no longer swept for a lapse. */
export const HOLD_INDEX_LENGTH = 1_000;

/** The list of every recent hold, `{ key, fence }`, read by the lapse sweep. */
export const HOLD_INDEX_KEY = "hold-index";

/** The record of one hold (by lock key and fence: a newer hold never overwrites it). */
export function holdRecordKey(lockKey: string, fence: number): string {
  return `hold:${lockKey}:${fence}`;
}

/**
 * The pointer from a lock key to its latest hold: it outlives the hold by the grace period, so a
 * drain can still tell that a waiting entry was held back; only a live lock with its fence
 * makes it the *current* hold.
 */
export function currentHoldKey(lockKey: string): string {
  return `hold-current:${lockKey}`;
}

/** The mark that decides, atomically, who ended a hold (release or lapse); set once. */
export function holdEndedKey(lockKey: string, fence: number): string {
  return `hold-ended:${lockKey}:${fence}`;
}

/** What {@link recordOf} reads: a hold handle's fields, token left out. */
export type HoldFields = Omit<HoldRecord, "takenAt">;

/** The record of a hold handle (`coordination/hold.ts`), taken at `takenAt`. */
export function recordOf(handle: HoldFields, takenAt: number): HoldRecord {
  const record = {
    key: handle.key,
    fence: handle.fence,
    threadId: handle.threadId,
    takenAt,
    expiresAt: handle.expiresAt,
  };
  if (handle.owner === undefined) return record;
  return handle.ownerPasses === true
    ? { ...record, owner: handle.owner, ownerPasses: true }
    : { ...record, owner: handle.owner };
}

/** Writes a new hold's record, its current-hold pointer and its index entry. */
export async function writeHoldRecord(
  state: StateAdapter,
  record: HoldRecord,
  nowMs: number,
): Promise<void> {
  await updateHoldRecord(state, record, nowMs);
  await state.appendToList(
    HOLD_INDEX_KEY,
    { key: record.key, fence: record.fence, expiresAt: record.expiresAt },
    { maxLength: HOLD_INDEX_LENGTH },
  );
}

/** Rewrites a hold's record and pointer with a new expiry (extend, release). */
export async function updateHoldRecord(
  state: StateAdapter,
  record: HoldRecord,
  nowMs: number,
): Promise<void> {
  const remainingMs = Math.max(1, record.expiresAt - nowMs);
  await state.set(
    holdRecordKey(record.key, record.fence),
    toJson(record),
    remainingMs + HOLD_RECORD_GRACE_MS,
  );
  await state.set(currentHoldKey(record.key), toJson(record), remainingMs + HOLD_RECORD_GRACE_MS);
}

/** The record of the hold with this fence on `lockKey`, or `null`. */
export async function readHoldRecord(
  state: StateAdapter,
  lockKey: string,
  fence: number,
): Promise<HoldRecord | null> {
  return asRecord(await state.get(holdRecordKey(lockKey, fence)));
}

/**
 * The hold now on `lockKey`, or `null`: its pointer must exist and the lock must still carry
 * its fence (a pointer can outlive a hold released by key, never the other way round).
 */
export async function currentHold(
  state: StateAdapter,
  lockKey: string,
): Promise<HoldRecord | null> {
  const record = await latestHold(state, lockKey);
  if (!record) return null;
  const lock = await state.inspectLock(lockKey);
  return lock?.fence === record.fence ? record : null;
}

/** The latest hold taken on `lockKey`, live or ended (within the grace period), or `null`. */
export async function latestHold(state: StateAdapter, lockKey: string): Promise<HoldRecord | null> {
  return asRecord(await state.get(currentHoldKey(lockKey)));
}

/** The distinct `{ key, fence }` pairs of the index, oldest first. */
export async function indexedHolds(state: StateAdapter): Promise<IndexedHold[]> {
  const seen = new Set<string>();
  const holds: IndexedHold[] = [];
  for (const item of await state.getList(HOLD_INDEX_KEY)) {
    const entry = item as { key?: unknown; fence?: unknown; expiresAt?: unknown } | null;
    if (typeof entry?.key !== "string" || typeof entry.fence !== "number") continue;
    const id = indexedHoldId(entry.key, entry.fence);
    if (seen.has(id)) continue;
    seen.add(id);
    // The first expiry, as taken: an extend only moves the record's, so this is never later.
    const expiresAt = typeof entry.expiresAt === "number" ? entry.expiresAt : 0;
    holds.push({ id, key: entry.key, fence: entry.fence, expiresAt });
  }
  return holds;
}

/** One hold of the index: its id (`key#fence`), and its expiry as taken. */
export interface IndexedHold {
  readonly id: string;
  readonly key: string;
  readonly fence: number;
  readonly expiresAt: number;
}

/** The id of a hold in the index and in a sweeper's memory of settled holds. */
export function indexedHoldId(key: string, fence: number): string {
  return `${key}#${fence}`;
}

function toJson(record: HoldRecord): JsonValue {
  return { ...record };
}

function asRecord(value: JsonValue | null): HoldRecord | null {
  const record = value as Partial<HoldRecord> | null;
  if (
    typeof record?.key !== "string" ||
    typeof record.fence !== "number" ||
    typeof record.threadId !== "string" ||
    typeof record.takenAt !== "number" ||
    typeof record.expiresAt !== "number"
  ) {
    return null;
  }
  return record as HoldRecord;
}
