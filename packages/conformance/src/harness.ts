import type { StateAdapter } from "@baton/core";

/**
 * An optional part of the State contract that a harness can require of its backend:
 * - `turns` — durable turn records (`TurnState` in @baton/core, DESIGN §6.1): `recoverTurn` and
 *   the other record methods, and the `turn` options of the lock calls.
 */
export type OptionalStateCapability = "turns";

/** Every {@link OptionalStateCapability}, for checking a harness's `requires`. */
export const OPTIONAL_STATE_CAPABILITIES: readonly OptionalStateCapability[] = ["turns"];

/**
 * How the conformance suite reaches one backend. One harness serves the whole suite; `create()`
 * is called once per test and must return a backend isolated from every other test's (a new
 * instance, key prefix or schema).
 */
export interface StateConformanceHarness {
  /** A fresh, isolated, not yet connected backend. The suite calls `connect()` itself. */
  create(): Promise<StateAdapter> | StateAdapter;
  /**
   * A second, not yet connected client of the same isolated store as `state`: for servers, a new
   * connection with the same prefix. The suite spreads concurrent calls over `state` and its
   * peers, so races are raced across clients. Omit for in-process backends.
   */
  createPeer?(state: StateAdapter): Promise<StateAdapter> | StateAdapter;
  /**
   * Lets `ms` of backend time pass: advances a fake clock, or sleeps for servers that judge
   * expiry by their own real clock.
   */
  advanceTime(ms: number): Promise<void>;
  /** A TTL the suite waits out to see expiry. Default 1 000; servers pick a few hundred ms. */
  shortTtlMs?: number;
  /** Extra time added when waiting out a TTL, for clock skew and load. Default 1. */
  expirySlackMs?: number;
  /**
   * How many claim records the backend holds for `state`'s store, counted behind its back (raw
   * keys, table rows, the in-memory map) after letting it purge what it purges by itself — e.g.
   * `purgeExpired()` for memory and Postgres; nothing for Redis, whose TTLs do it. Required: the
   * housekeeping case fails without it, since an unpurged record is invisible through the
   * contract.
   */
  storedClaimRecords?(state: StateAdapter): Promise<number>;
  /**
   * Optional capabilities this backend must offer. A backend without an optional capability
   * passes its cases by showing that the capability is consistently absent; one listed here
   * fails them instead, so a backend that offers it cannot lose it silently. Default: none.
   *
   * @example requires: ["turns"]
   */
  requires?: readonly OptionalStateCapability[];
  /** Frees one test's backend (and its peers). Default: `disconnect()` each. */
  dispose?(state: StateAdapter, peers: readonly StateAdapter[]): Promise<void>;
}

/** What each conformance case receives. */
export interface ConformanceContext {
  /** The connected backend under test. */
  readonly state: StateAdapter;
  /** `state` followed by its connected peers; at least one client. */
  readonly clients: readonly StateAdapter[];
  /** A TTL to wait out (harness `shortTtlMs`). */
  readonly shortTtlMs: number;
  /** A TTL that never lapses during a test. */
  readonly longTtlMs: number;
  /** Lets `ms` of backend time pass. */
  advanceTime(ms: number): Promise<void>;
  /** Lets `ttlMs` plus the harness's slack pass, so anything set with `ttlMs` has expired. */
  waitOut(ttlMs: number): Promise<void>;
  /** The client for the i-th of several concurrent callers (round-robin over `clients`). */
  client(i: number): StateAdapter;
  /** True when the harness lists `capability` in `requires`: its absence must fail the case. */
  requires(capability: OptionalStateCapability): boolean;
  /** The harness's `storedClaimRecords` for `state`; rejects when the harness has none. */
  storedClaimRecords(): Promise<number>;
}

/** Ten minutes: comfortably longer than any test, on any machine. */
export const LONG_TTL_MS = 600_000;
