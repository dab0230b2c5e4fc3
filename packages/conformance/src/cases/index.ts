import type { ConformanceCase } from "../conformance-case.js";
import { claimCases } from "./claims.js";
import { fastPathCases } from "./fast-paths.js";
import { fenceCases } from "./fences.js";
import { isolationCases } from "./isolation.js";
import { keyValueCases } from "./key-value.js";
import { lifecycleCases, unconnectedCases } from "./lifecycle.js";
import { listCases } from "./lists.js";
import { lockCases } from "./locks.js";
import { queueCases } from "./queues.js";
import { subscriptionCases } from "./subscriptions.js";
import { turnRecoveryCases } from "./turn-recovery.js";
import { turnRecordCases } from "./turns.js";

/** Every case of the State conformance suite, grouped by capability in lifecycle order. */
export const stateConformanceCases: readonly ConformanceCase[] = [
  ...unconnectedCases,
  ...lifecycleCases,
  ...subscriptionCases,
  ...keyValueCases,
  ...lockCases,
  ...fenceCases,
  ...queueCases,
  ...listCases,
  ...claimCases,
  ...isolationCases,
  ...fastPathCases,
  ...turnRecordCases,
  ...turnRecoveryCases,
];
