import type { StateAdapter } from "@baton/core";
import { stateConformanceCases } from "./cases/index.js";
import type { ConformanceCase } from "./conformance-case.js";
import {
  type ConformanceContext,
  LONG_TTL_MS,
  OPTIONAL_STATE_CAPABILITIES,
  type OptionalStateCapability,
  type StateConformanceHarness,
} from "./harness.js";

/** How many peer clients the suite opens when the harness can create them. */
const PEER_COUNT = 2;

/** The outcome of one case run outside a test runner. */
export interface ConformanceResult {
  readonly group: string;
  readonly title: string;
  /** The failure, or `undefined` when the case passed. */
  readonly error: unknown;
}

/**
 * Runs one case against a fresh backend from `harness`, disposing of it afterwards whatever
 * happened. Rejects with the case's failure.
 */
export async function runConformanceCase(
  harness: StateConformanceHarness,
  testCase: ConformanceCase,
): Promise<void> {
  const required = requiredCapabilities(harness);
  const state = await harness.create();
  const peers: StateAdapter[] = [];
  try {
    if (harness.createPeer) {
      for (let i = 0; i < PEER_COUNT; i += 1) peers.push(await harness.createPeer(state));
    }
    if (!testCase.startsDisconnected) {
      for (const client of [state, ...peers]) await client.connect();
    }
    await testCase.run(createContext(harness, required, state, peers));
  } finally {
    await dispose(harness, state, peers);
  }
}

/**
 * Runs cases (default: the whole suite) one after another and reports each outcome instead of
 * throwing. For tooling and for proving the suite catches broken backends.
 */
export async function runStateConformance(
  harness: StateConformanceHarness,
  cases: readonly ConformanceCase[] = stateConformanceCases,
): Promise<ConformanceResult[]> {
  const results: ConformanceResult[] = [];
  for (const testCase of cases) {
    let error: unknown;
    try {
      await runConformanceCase(harness, testCase);
    } catch (caught) {
      error = caught ?? new Error("the case failed with an empty rejection");
    }
    results.push({ group: testCase.group, title: testCase.title, error });
  }
  return results;
}

/** The harness's `requires` as a set; throws on a name the suite does not know. */
function requiredCapabilities(
  harness: StateConformanceHarness,
): ReadonlySet<OptionalStateCapability> {
  const required = new Set(harness.requires ?? []);
  for (const capability of required) {
    if (!OPTIONAL_STATE_CAPABILITIES.includes(capability)) {
      throw new Error(
        `the harness requires ${JSON.stringify(capability)}, which is not an optional State capability (known: ${OPTIONAL_STATE_CAPABILITIES.join(", ")})`,
      );
    }
  }
  return required;
}

function createContext(
  harness: StateConformanceHarness,
  required: ReadonlySet<OptionalStateCapability>,
  state: StateAdapter,
  peers: readonly StateAdapter[],
): ConformanceContext {
  const clients = [state, ...peers];
  const slackMs = harness.expirySlackMs ?? 1;
  return {
    state,
    clients,
    shortTtlMs: harness.shortTtlMs ?? 1_000,
    longTtlMs: LONG_TTL_MS,
    advanceTime: (ms) => harness.advanceTime(ms),
    waitOut: (ttlMs) => harness.advanceTime(ttlMs + slackMs),
    client: (i) => clients[i % clients.length] ?? state,
    requires: (capability) => required.has(capability),
    storedClaimRecords: async () => {
      if (!harness.storedClaimRecords) {
        throw new Error(
          "the harness has no storedClaimRecords(state): give it one that counts the backend's claim records behind its back",
        );
      }
      return harness.storedClaimRecords(state);
    },
  };
}

async function dispose(
  harness: StateConformanceHarness,
  state: StateAdapter,
  peers: readonly StateAdapter[],
): Promise<void> {
  if (harness.dispose) {
    await harness.dispose(state, peers);
    return;
  }
  for (const client of [state, ...peers]) await client.disconnect();
}
