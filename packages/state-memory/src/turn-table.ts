import {
  type Lock,
  type QueueEntry,
  type RecoveredTurn,
  type TakeQueuedTurnOptions,
  type TurnHandBackReason,
  type TurnRecord,
  type TurnRelease,
  type TurnWrite,
  ValidationError,
} from "@baton/core";
import type { ExpiringMap } from "./expiring-map.js";

interface StoredTurn {
  /**
   * The entries as JSON text: a record is written on every uncontended message and read only on
   * recovery or inspection, and JSON text is the cheapest copy to make of JSON values
   * (`structuredClone` of a message's mdast cost a quarter of a memory dispatch).
   */
  entriesJson: string;
  fence: number;
  attempt: number;
  startedAt: number;
  handedBack?: TurnHandBackReason;
}

const HAND_BACK_REASONS: readonly string[] = [
  "shutdown",
  "lease-lost",
] satisfies TurnHandBackReason[];

/**
 * The memory backend's turn records (DESIGN §6.1, `TurnState` in @baton/core): one per lock key,
 * next to the backend's locks and queues, which it reads and changes in the same synchronous
 * step. A record has no expiry; with its lock free or expired it is an interrupted turn. The
 * methods here assume their arguments were checked and the lock step (if any) already done.
 */
export class TurnTable {
  private readonly records = new Map<string, StoredTurn>();

  constructor(
    private readonly locks: ExpiringMap<Lock>,
    private readonly queues: Map<string, QueueEntry[]>,
  ) {}

  /** True when `key` has a record: with its lock free, an acquire with a turn must wait. */
  has(key: string): boolean {
    return this.records.has(key);
  }

  /** Writes the record of a turn starting under `lock`: its first attempt. */
  start(lock: Lock, turn: TurnWrite, attempt = 1): void {
    this.records.set(lock.key, {
      entriesJson: JSON.stringify(turn.entries),
      fence: lock.fence,
      attempt,
      startedAt: turn.startedAt,
    });
  }

  /** Ends or hands back the record of `lock`'s turn; a record of another fence is not touched. */
  settle(lock: Lock, release: TurnRelease): void {
    const record = this.records.get(lock.key);
    if (record?.fence !== lock.fence) return;
    if (release.kind === "end") this.records.delete(lock.key);
    else record.handedBack = release.reason;
  }

  /** Keys of interrupted turns (lock free or expired), at most `limit`. */
  pendingKeys(limit: number): string[] {
    const keys: string[] = [];
    for (const key of this.records.keys()) {
      if (keys.length >= limit) break;
      if (!this.locks.has(key)) keys.push(key);
    }
    return keys;
  }

  /** True when `key` holds an interrupted turn: a record, and its lock free or expired. */
  interrupted(key: string): boolean {
    return this.records.has(key) && !this.locks.has(key);
  }

  /** Moves the interrupted turn on `lock.key` under `lock`, just taken for it. */
  recover(lock: Lock, startedAt: number): RecoveredTurn {
    const prior = this.records.get(lock.key);
    if (!prior) throw new Error(`no turn record on ${lock.key} to recover`);
    const interrupted = this.copy(lock.key, prior);
    this.records.set(lock.key, {
      entriesJson: prior.entriesJson,
      fence: lock.fence,
      attempt: prior.attempt + 1,
      startedAt,
    });
    return { lock: { ...lock }, interrupted };
  }

  /** Moves up to `maxEntries` oldest entries of `lock.key`'s queue into a new record. */
  takeQueued(lock: Lock, options: TakeQueuedTurnOptions): QueueEntry[] {
    const queue = this.queues.get(lock.key);
    if (!this.holds(lock) || !queue) return [];
    const taken = queue.splice(0, options.maxEntries);
    if (queue.length === 0) this.queues.delete(lock.key);
    if (taken.length > 0) this.start(lock, { entries: taken, startedAt: options.startedAt });
    return taken;
  }

  /** Sets the record of `lock`'s turn, keeping the attempt of a record of its fence. */
  write(lock: Lock, turn: TurnWrite): boolean {
    if (!this.holds(lock)) return false;
    const previous = this.records.get(lock.key);
    this.start(lock, turn, previous?.fence === lock.fence ? previous.attempt : 1);
    return true;
  }

  /** A copy of `key`'s record, or `null`. */
  inspect(key: string): TurnRecord | null {
    const record = this.records.get(key);
    return record ? this.copy(key, record) : null;
  }

  /** Forgets every record, as a disconnect forgets all data. */
  clear(): void {
    this.records.clear();
  }

  private holds(lock: Lock): boolean {
    return this.locks.get(lock.key)?.token === lock.token;
  }

  private copy(key: string, record: StoredTurn): TurnRecord {
    const { handedBack, entriesJson, fence, attempt, startedAt } = record;
    const entries = JSON.parse(entriesJson) as QueueEntry[];
    const copy = { key, entries, fence, attempt, startedAt };
    return handedBack === undefined ? copy : { ...copy, handedBack };
  }
}

/** Rejects a turn write whose entries are not a list or whose startedAt is not a time. */
export function assertTurnWrite(step: string, turn: TurnWrite): void {
  if (!Array.isArray(turn?.entries) || !Number.isFinite(turn.startedAt)) {
    throw new ValidationError(
      `turn must be { entries: QueueEntry[], startedAt: epoch milliseconds }, got entries ${typeof turn?.entries} and startedAt ${turn?.startedAt}`,
      { step },
    );
  }
}

/** Rejects a turn release that neither ends nor hands back with a known reason. */
export function assertTurnRelease(step: string, release: TurnRelease | undefined): void {
  if (release === undefined || release.kind === "end") return;
  if (release.kind === "hand-back" && HAND_BACK_REASONS.includes(release.reason)) return;
  throw new ValidationError(
    `turn must be { kind: "end" } or { kind: "hand-back", reason: "shutdown" | "lease-lost" }, got ${JSON.stringify(release)}`,
    { step },
  );
}
