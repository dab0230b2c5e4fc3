import { randomUUID } from "node:crypto";
import type {
  Lock,
  LockInfo,
  QueueEntry,
  RecoveredTurn,
  TurnRelease,
  TurnWrite,
} from "@baton/core";
import { ExpiringMap } from "./expiring-map.js";
import { TurnTable } from "./turn-table.js";

/**
 * The memory backend's locks (DESIGN §4.1) and the turn records beside them (§6.1), changed
 * together in one synchronous step. Fences come from the backend's fence sequence, which is
 * never reset, so they strictly increase per key across holders, expiry, recovery and
 * reconnects. The methods here assume their arguments were checked.
 */
export class LockTable {
  private readonly locks: ExpiringMap<Lock>;
  /** The turn records of the locks' keys. */
  readonly turns: TurnTable;

  constructor(
    private readonly now: () => number,
    private readonly nextFence: () => number,
    queues: Map<string, QueueEntry[]>,
  ) {
    this.locks = new ExpiringMap(now);
    this.turns = new TurnTable(this.locks, queues);
  }

  /**
   * Takes the lock when it is free or expired — and, with `turn`, no turn record waits on the
   * key — writing `turn` as the record of the run it is taken for. `null` otherwise.
   */
  take(key: string, ttlMs: number, turn?: TurnWrite): Lock | null {
    if (this.locks.has(key) || (turn !== undefined && this.turns.has(key))) return null;
    const lock: Lock = {
      key,
      token: randomUUID(),
      fence: this.nextFence(),
      expiresAt: this.now() + ttlMs,
    };
    this.locks.set(key, lock, ttlMs);
    if (turn !== undefined) this.turns.start(lock, turn);
    return { ...lock };
  }

  /**
   * Frees the lock when `lock.token` holds it; with `turn`, ends or hands back the record of
   * `lock`'s turn whether or not the lock was still held. True when the lock was freed.
   */
  free(lock: Lock, turn?: TurnRelease): boolean {
    const held = this.holds(lock);
    if (held) this.locks.delete(lock.key);
    if (turn !== undefined) this.turns.settle(lock, turn);
    return held;
  }

  /** Moves a held lock's expiry to `ttlMs` from now; never resurrects an expired one. */
  extend(lock: Lock, ttlMs: number): boolean {
    return this.holds(lock) && this.locks.touch(lock.key, ttlMs);
  }

  /** Frees the lock on `key` whoever holds it; its turn record stays, now interrupted. */
  forceFree(key: string): void {
    this.locks.delete(key);
  }

  /** The live lock on `key` without its token. */
  info(key: string): LockInfo | null {
    const lock = this.locks.get(key);
    const expiresAt = this.locks.expiresAt(key);
    return lock && expiresAt !== undefined ? { key, fence: lock.fence, expiresAt } : null;
  }

  /** Takes the lock of the interrupted turn on `key` together with the turn; `null` if none. */
  recover(key: string, ttlMs: number, startedAt: number): RecoveredTurn | null {
    if (!this.turns.interrupted(key)) return null;
    const lock = this.take(key, ttlMs);
    return lock && this.turns.recover(lock, startedAt);
  }

  /** Locks held in memory, expired ones awaiting purge included. */
  get storedSize(): number {
    return this.locks.storedSize;
  }

  /** Removes expired locks; turn records have no expiry and stay. */
  purgeExpired(): void {
    this.locks.purgeExpired();
  }

  /** Forgets every lock and turn record, as a disconnect forgets all data. */
  clear(): void {
    this.locks.clear();
    this.turns.clear();
  }

  private holds(lock: Lock): boolean {
    return this.locks.get(lock.key)?.token === lock.token;
  }
}
