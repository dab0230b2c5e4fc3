import type { Adapter, Chat } from "@baton/core";
import type { AdapterConformanceHarness } from "./harness.js";

/** One ended dispatch span of the suite's `Chat`. */
export interface EndedSpan {
  outcome: string;
  reason: string | undefined;
}

/** What each adapter conformance case receives. */
export interface AdapterConformanceContext<TThreadData = unknown> {
  /** The adapter under test, registered in {@link chat}. */
  readonly adapter: Adapter<TThreadData>;
  readonly harness: AdapterConformanceHarness<TThreadData>;
  /** A real, initialized `Chat` with sync dispatch; handlers may be added by the case. */
  readonly chat: Chat;
  /** The encoded first thread of the harness. */
  readonly threadId: string;
  /** Dispatch spans ended so far, in order. */
  readonly spans: readonly EndedSpan[];
  /** Resolves once `count` spans have ended; rejects after the harness's settle timeout. */
  waitForSpans(count: number): Promise<readonly EndedSpan[]>;
}

/** One behaviour every adapter must show. */
export interface AdapterConformanceCase {
  /** The part of the contract ("thread ids", "inbound", "outbound"), used as the describe block. */
  readonly group: string;
  /** A behaviour sentence. */
  readonly title: string;
  /** Throws when the adapter misbehaves. */
  run(context: AdapterConformanceContext): Promise<void>;
}

/** Builds the cases of one group. */
export function defineAdapterCases(
  group: string,
  cases: Record<string, (context: AdapterConformanceContext) => Promise<void>>,
): AdapterConformanceCase[] {
  return Object.entries(cases).map(([title, run]) => ({ group, title, run }));
}
