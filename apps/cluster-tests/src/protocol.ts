import type { StrategyName } from "@baton/core";

/** Which shared State the workers use. */
export type BackendSpec =
  | { kind: "redis"; url: string; keyPrefix: string }
  | {
      kind: "redis-cluster";
      rootUrls: string[];
      keyPrefix: string;
      /** `replication` of the Redis backend: WAIT for replicas after lock writes. */
      replication?: { waitReplicas: number; timeoutMs: number };
    }
  | { kind: "postgres"; url: string; schema: string };

/** How each worker configures its Chat. */
export interface WorkerConfig {
  readonly name: string;
  readonly backend: BackendSpec;
  readonly strategy: StrategyName;
  readonly lockTtlMs: number;
  readonly sweepIntervalMs: number;
  readonly debounceMs: number;
  /** Append-only JSON-lines file this worker logs to. */
  readonly logPath: string;
  /** The Chat's `durableTurns` option; absent: the default (on, 3 attempts). */
  readonly durableTurns?: { maxAttempts: number } | false;
  /** `timeoutMs` of the `chat.shutdown()` a SIGTERM or a `shutdown` message starts (5 000). */
  readonly shutdownTimeoutMs?: number;
  /**
   * How long the process lives on after `chat.shutdown()` resolved before it exits (0): a server
   * that still finishes other work, during which a handler that ignored its signal may return.
   */
  readonly lingerAfterShutdownMs?: number;
}

/** What a message asks the demo handler to do; carried in the message text as JSON. */
export interface HandlerPlan {
  readonly durationMs: number;
  readonly fails: boolean;
  /**
   * What the handler does when `context.signal` aborts: `return` (the default) stops waiting and
   * returns as if done; `throw` stops and throws the signal's reason, the usual reaction, which
   * hands a durable turn back; `ignore` keeps waiting out its duration.
   */
  readonly onAbort?: "return" | "throw" | "ignore";
  /**
   * With `onAbort: "ignore"`: when the signal aborts, the handler returns this long after the
   * abort instead (a handler that outlives shutdown's deadline by a known margin, however late
   * the shutdown began).
   */
  readonly returnAfterAbortMs?: number;
  /** How long the first attempt lasts instead of `durationMs` (a long run that gets interrupted). */
  readonly firstAttemptMs?: number;
  /** After waiting, the handler SIGKILLs its own process, on every attempt: a poison turn. */
  readonly crash?: boolean;
}

/** Parent → worker. */
export type ParentMessage =
  | {
      type: "deliver";
      requestId: number;
      messageId: string;
      threadId: string;
      plan: HandlerPlan;
    }
  | { type: "once"; requestId: number; key: string; durationMs: number }
  | { type: "shutdown" };
// A SIGTERM (`WorkerHandle.terminate()`) also shuts the worker's Chat down, as an orchestrator's
// stop would.

/** Worker → parent. */
export type WorkerMessage =
  | { type: "ready" }
  | { type: "result"; requestId: number; outcome: string }
  | { type: "failed"; requestId: number; error: string }
  | { type: "stopped" };

/** A handler run starting or ending, as a worker logged it. */
export interface RunEntry {
  kind: "run-start" | "run-end";
  worker: string;
  messageId: string;
  threadId: string;
  lockKey: string;
  skipped: string[];
  fence: number | undefined;
  atMs: number;
  aborted?: boolean;
  /** On a run-end whose signal aborted: the abort reason's error code (e.g. `LOCK_LOST`). */
  abortCode?: string;
  /** On a run-end: the handler is about to SIGKILL its own process (`HandlerPlan.crash`). */
  crashed?: boolean;
  /** `context.attempt`: 1 on a turn's first run. */
  attempt?: number;
  /** `context.interrupted` of a run that picks an interrupted turn up again. */
  interrupted?: { attempt: number; startedAtMs: number; reason: string };
}

/** An `onTurnAbandoned` handler run, as a worker logged it. */
export interface AbandonedEntry {
  kind: "abandoned";
  worker: string;
  messageId: string;
  threadId: string;
  skipped: string[];
  attempt: number;
  atMs: number;
}

/** One line of a worker's log. Times are `Date.now()`: one machine, one clock. */
export type LogEntry =
  | RunEntry
  | AbandonedEntry
  | {
      kind: "settled";
      worker: string;
      deliveryKey: string;
      outcome: string;
      reason?: string;
      /** False for an echo of a disposition another worker decided and counted (ADR 0011). */
      counted?: boolean;
      atMs: number;
    };
