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
}

/** What a message asks the demo handler to do; carried in the message text as JSON. */
export interface HandlerPlan {
  readonly durationMs: number;
  readonly fails: boolean;
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
}

/** One line of a worker's log. Times are `Date.now()`: one machine, one clock. */
export type LogEntry =
  | RunEntry
  | { kind: "settled"; worker: string; deliveryKey: string; outcome: string; atMs: number };
