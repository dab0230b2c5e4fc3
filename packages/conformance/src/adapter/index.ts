export {
  type AdapterConformanceCase,
  type AdapterConformanceContext,
  defineAdapterCases,
  type EndedSpan,
} from "./adapter-case.js";
export { capabilityCases } from "./capability-cases.js";
export { adapterConformanceCases } from "./cases.js";
export { describeAdapter } from "./describe-adapter.js";
export type { AdapterConformanceHarness } from "./harness.js";
export {
  runAdapterConformance,
  runAdapterConformanceCase,
} from "./run-adapter-conformance.js";
