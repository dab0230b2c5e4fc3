import { type Adapter, Chat, type Observer } from "@baton/core";
import type { ConformanceResult } from "../run-state-conformance.js";
import type {
  AdapterConformanceCase,
  AdapterConformanceContext,
  EndedSpan,
} from "./adapter-case.js";
import { adapterConformanceCases } from "./cases.js";
import type { AdapterConformanceHarness } from "./harness.js";

/**
 * Runs one case against a fresh adapter from `harness`, registered in a fresh `Chat`, and
 * shuts both down afterwards whatever happened. Rejects with the case's failure.
 */
export async function runAdapterConformanceCase<TThreadData>(
  harness: AdapterConformanceHarness<TThreadData>,
  testCase: AdapterConformanceCase,
): Promise<void> {
  const first = harness.threads[0];
  if (first === undefined) throw new Error("the harness must give at least one sample thread");
  const adapter = await harness.create();
  const spans: EndedSpan[] = [];
  const observer: Observer = {
    startDispatch: () => ({
      setAttributes: () => {},
      end: (outcome, reason) => {
        spans.push({ outcome, reason });
      },
    }),
  };
  const chat = new Chat({
    userName: adapter.userName || "bot",
    adapters: { [adapter.name]: adapter as Adapter },
    state: await harness.createState(),
    logger: "silent",
    // The entry point answers after the handlers, so a case sees their effects on return.
    dispatch: "sync",
    observer,
  });
  try {
    await chat.initialize();
    const context: AdapterConformanceContext = {
      adapter: adapter as Adapter,
      harness: harness as AdapterConformanceHarness,
      chat,
      threadId: adapter.encodeThreadId(first),
      spans,
      waitForSpans: (count) => waitForSpans(spans, count, harness.settleTimeoutMs ?? 5_000),
    };
    await testCase.run(context);
  } finally {
    await chat.shutdown({ timeoutMs: 1_000 });
    await harness.dispose?.(adapter);
  }
}

/**
 * Runs cases (default: the whole adapter suite) one after another and reports each outcome
 * instead of throwing. For tooling and for proving the suite catches broken adapters.
 */
export async function runAdapterConformance<TThreadData>(
  harness: AdapterConformanceHarness<TThreadData>,
  cases: readonly AdapterConformanceCase[] = adapterConformanceCases,
): Promise<ConformanceResult[]> {
  const results: ConformanceResult[] = [];
  for (const testCase of cases) {
    let error: unknown;
    try {
      await runAdapterConformanceCase(harness, testCase);
    } catch (caught) {
      error = caught ?? new Error("the case failed with an empty rejection");
    }
    results.push({ group: testCase.group, title: testCase.title, error });
  }
  return results;
}

/** Polls until `count` spans ended. Real time: platforms' entry points may answer before dispatch ends. */
async function waitForSpans(
  spans: readonly EndedSpan[],
  count: number,
  timeoutMs: number,
): Promise<readonly EndedSpan[]> {
  const deadline = Date.now() + timeoutMs;
  while (spans.length < count) {
    if (Date.now() > deadline) {
      throw new Error(
        `only ${spans.length} of ${count} deliveries settled within ${timeoutMs} ms: ${JSON.stringify(spans)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return [...spans];
}
