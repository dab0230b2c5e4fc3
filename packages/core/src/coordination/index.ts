export {
  AdmissionBound,
  type AdmissionLimits,
  type AdmissionScope,
  type Permit,
} from "./admission-bound.js";
