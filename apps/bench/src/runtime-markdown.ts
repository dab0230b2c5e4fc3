import { markdownTable } from "./format.js";
import { type HandOffResult, summarizeHandOff } from "./handoff-bench.js";
import type { MemoryReport } from "./memory-bench.js";

/** The goal of issue 16 for a hand-off on one process. */
const HAND_OFF_GOAL_MS = 5;
/** How far the soak's heap may end from its baseline. */
const SOAK_TOLERANCE = 0.1;

/** The "Lock hand-off" section, or nothing when the scenario did not run. */
export function handOffSection(results: readonly HandOffResult[] | undefined): string[] {
  if (results === undefined || results.length === 0) return [];
  const rows = results.map((result) => {
    const summary = summarizeHandOff(result);
    return [
      result.implementation,
      `\`${result.variant}\``,
      String(result.latenciesMs.length),
      summary ? ms(summary.p50Ms) : "–",
      summary ? ms(summary.p95Ms) : "–",
      summary ? ms(summary.maxMs) : "–",
      result.missed === 0 ? "ok" : `${result.missed} never started`,
    ];
  });
  const baton = results.filter((result) => result.implementation === "baton");
  const worstP95 = Math.max(...baton.map((result) => summarizeHandOff(result)?.p95Ms ?? Infinity));
  return [
    "## Lock hand-off",
    `Memory State, strategy \`queue\`, one thread per hand-off: the holder's handler waits until a contender is in the State queue (learnt from the State's own \`enqueue\` completing, not by polling), then returns; the latency is from that return to the contender's handler starting. \`same-instance\`: the contender arrived on the holder's \`Chat\`; \`other-instance\`: on a second \`Chat\` sharing the State, which handed it off — the holder's release finds it in the queue (\`releaseAndNext\`) and drains it. Nothing in either path sleeps or polls: the holder drains on its own wake-up.`,
    `Goal: a queued message starts < ${HAND_OFF_GOAL_MS} ms after the holder releases — Baton's worst p95 here is ${ms(worstP95)} (${worstP95 < HAND_OFF_GOAL_MS ? "met" : "not met"}).`,
    markdownTable(["implementation", "variant", "hand-offs", "p50", "p95", "max", "check"], rows),
  ];
}

/** The "Memory" section, or nothing when the scenario did not run. */
export function memorySection(report: MemoryReport | undefined): string[] {
  if (report === undefined) return [];
  const drift = report.soakAfterBytes / report.soakBaselineBytes - 1;
  const rows = [
    [
      `parked waiter (${report.parkedWaiters.toLocaleString("en-US")} behind one busy thread)`,
      bytes(report.bytesPerParkedWaiter),
    ],
    [
      `idle thread, its dedupe mark alive (${report.idleThreads.toLocaleString("en-US")} threads)`,
      bytes(report.bytesPerIdleThread),
    ],
    ["idle thread, after the dedupe TTL", bytes(report.bytesPerIdleThreadAfterTtl)],
  ];
  return [
    "## Memory",
    "Baton on the memory State (fused fast paths) with an injected clock, so TTLs pass without waiting. Each figure is a difference of `heapUsed` after full garbage collections, divided by the count; the readings compared are taken in the same settled state (every TTL passed and purged, a few messages run after the purge so emptied tables are back at their working size). A parked waiter is a message queued behind a busy thread and waiting, in this process, for the holder's drain: its delivery record, its `processMessage` promise and its queue entry. An idle thread handled one message and has nothing running; what it keeps is its message's dedupe mark (`dedupeTtlMs`, 10 minutes), and nothing once that expired.",
    markdownTable(["what", "heap per item"], rows),
    `Soak: ${report.soakMessages.toLocaleString("en-US")} messages over ${report.soakThreads} threads, ${report.soakInFlight} in flight, strategy \`queue\`; then every TTL passes (dedupe marks, queue entries) and the State purges. Heap after the warm-up ${mebibytes(report.soakBaselineBytes)}, after the soak ${mebibytes(report.soakAfterBytes)}: ${signedPercent(drift)} (goal: back to the baseline ± ${SOAK_TOLERANCE * 100} %, ${Math.abs(drift) <= SOAK_TOLERANCE ? "met" : "not met"}); ${report.soakUnanswered === 0 ? "every message answered" : `${report.soakUnanswered} messages unanswered`}.`,
  ];
}

function ms(value: number): string {
  if (!Number.isFinite(value)) return "–";
  return `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms`;
}

function bytes(value: number): string {
  const rounded = Math.round(value);
  // A reading below the baseline is heap noise (what the collector happened to leave), not data.
  if (rounded <= 0) return `≈ 0 B (measured ${rounded.toLocaleString("en-US")} B)`;
  return `${rounded.toLocaleString("en-US")} B`;
}

function mebibytes(value: number): string {
  return `${(value / 1024 / 1024).toFixed(1)} MiB`;
}

function signedPercent(fraction: number): string {
  const percent = fraction * 100;
  return `${percent >= 0 ? "+" : "−"}${Math.abs(percent).toFixed(1)} %`;
}
