export {
  type AdapterConformanceCase,
  type AdapterConformanceContext,
  type AdapterConformanceHarness,
  adapterConformanceCases,
  capabilityCases,
  defineAdapterCases,
  describeAdapter,
  type EndedSpan,
  runAdapterConformance,
  runAdapterConformanceCase,
} from "./adapter/index.js";
export { stateConformanceCases } from "./cases/index.js";
export { type ConformanceCase, defineCases } from "./conformance-case.js";
export {
  type DescribeStateAdapterOptions,
  describeStateAdapter,
} from "./describe-state-adapter.js";
export {
  type ConformanceContext,
  LONG_TTL_MS,
  OPTIONAL_STATE_CAPABILITIES,
  type OptionalStateCapability,
  type StateConformanceHarness,
} from "./harness.js";
export {
  type ConformanceResult,
  runConformanceCase,
  runStateConformance,
} from "./run-state-conformance.js";
