import type { Adapter } from "../contracts/adapter.js";
import { type AdapterFeature, capabilitiesOf } from "../contracts/capabilities.js";
import { NotSupportedError } from "../errors/index.js";

/**
 * Throws a `NotSupportedError` naming the adapter and `feature` when the adapter declares it
 * cannot do it, so the tool fails before any platform call with an error the model can read.
 */
export function requireFeature(adapter: Adapter, feature: AdapterFeature, step: string): void {
  if (!capabilitiesOf(adapter)[feature]) throw unavailable(adapter, feature, step);
}

/** The error of a tool whose adapter lacks the optional method or capability `feature`. */
export function unavailable(adapter: Adapter, feature: string, step: string): NotSupportedError {
  return new NotSupportedError(adapter.name, feature, { step });
}
