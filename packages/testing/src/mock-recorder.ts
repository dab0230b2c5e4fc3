import { AdapterError, type Clock, ValidationError } from "@baton/core";
import {
  cloneArg,
  copyCall,
  isMockMethod,
  MOCK_METHODS,
  type MockCall,
  type MockMethod,
} from "./mock-call.js";

/** One recorded call while it runs; `done` turns true when it resolved. */
export interface CallRecord {
  method: MockMethod;
  threadId: string;
  args: unknown[];
  at: number;
  error?: unknown;
  done: boolean;
}

/**
 * The mock adapter's outbound call log and its injected failures. Every outbound method runs
 * through {@link MockRecorder.record}, so a call is logged (with its error, if any) in call order
 * whether it succeeds, fails validation, or fails by `failNext`.
 */
export class MockRecorder {
  private records: CallRecord[] = [];
  private failures = new Map<MockMethod, unknown[]>();

  constructor(
    private readonly adapterName: string,
    private readonly clock: Pick<Clock, "now">,
  ) {}

  /**
   * Logs the call, then runs `check` (thread id and capability checks), takes a queued failure if
   * there is one, and runs `run`. A rejection of any step is recorded on the call and rethrown.
   */
  async record<T>(
    method: MockMethod,
    threadId: string,
    args: unknown[],
    check: () => void,
    run: () => T | Promise<T>,
  ): Promise<T> {
    const record: CallRecord = {
      method,
      threadId,
      args: cloneArgs(args),
      at: this.clock.now(),
      done: false,
    };
    this.records.push(record);
    try {
      check();
      const queued = this.failures.get(method);
      if (queued && queued.length > 0) throw queued.shift();
      const result = await run();
      record.done = true;
      return result;
    } catch (error) {
      record.error = error;
      throw error;
    }
  }

  /** Every call so far, in call order, as frozen copies. */
  calls(method?: MockMethod): readonly MockCall[] {
    const picked =
      method === undefined ? this.records : this.records.filter((r) => r.method === method);
    return Object.freeze(picked.map(toCall));
  }

  /** The live records of calls that succeeded, of the given methods, in call order. */
  succeeded(methods: readonly MockMethod[]): CallRecord[] {
    return this.records.filter((r) => methods.includes(r.method) && r.done && !("error" in r));
  }

  /** Queues `error` (default: an `AdapterError`) for the next call of `method`. */
  failNext(method: MockMethod, error?: unknown): void {
    if (!isMockMethod(method)) {
      throw new ValidationError(
        `unknown method ${JSON.stringify(method)}; one of ${MOCK_METHODS.join(", ")}`,
        { step: "fail next call" },
      );
    }
    const failure =
      error ?? new AdapterError(this.adapterName, `${method} failed (injected by failNext)`);
    this.failures.set(method, [...(this.failures.get(method) ?? []), failure]);
  }

  /** Forgets the log and the queued failures. */
  clear(): void {
    this.records = [];
    this.failures = new Map();
  }
}

function toCall(record: CallRecord): MockCall {
  const call: MockCall = {
    method: record.method,
    threadId: record.threadId,
    args: record.args,
    at: record.at,
  };
  return copyCall("error" in record ? { ...call, error: record.error } : call);
}

/** Clones plain arguments; a stream's live chunk array is kept by reference until copied out. */
function cloneArgs(args: unknown[]): unknown[] {
  return args.map((arg) => (Array.isArray(arg) ? arg : cloneArg(arg)));
}
