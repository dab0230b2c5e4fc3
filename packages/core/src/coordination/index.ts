export {
  AdmissionBound,
  type AdmissionLimits,
  type AdmissionScope,
  type Permit,
} from "./admission-bound.js";
export {
  type HoldHandle,
  type HoldOptions,
  holdHandleOf,
  parseHoldHandle,
} from "./hold.js";
export {
  chatOnceKey,
  type OnceDeps,
  type OnceOptions,
  type OnceResult,
  type OnceRun,
  type OnceWork,
  runOnce,
  threadOnceKey,
} from "./once.js";
export {
  type ExclusiveAttempt,
  type GateScope,
  type TryExclusiveOptions,
  TurnGate,
  type TurnOptions,
} from "./turn-gate.js";
