import { type AdapterFeature, isBatonError, type NotSupportedError } from "@baton/core";
import type { AdapterConformanceContext } from "./adapter-case.js";

/** Throws `problem` unless `condition` holds. */
export function check(condition: boolean, problem: string): void {
  if (!condition) throw new Error(problem);
}

/** JSON for failure messages. */
export function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Asserts that `attempt` rejects with a `NotSupportedError` naming the adapter and `feature`:
 * the one answer a call the platform cannot do may give (never a silent no-op). `what` names
 * the call in the failure message.
 */
export async function expectNotSupported(
  context: AdapterConformanceContext,
  feature: AdapterFeature,
  what: string,
  attempt: () => Promise<unknown>,
): Promise<void> {
  let outcome: { error: unknown } | { value: unknown };
  try {
    outcome = { value: await attempt() };
  } catch (error) {
    outcome = { error };
  }
  if ("value" in outcome) {
    throw new Error(
      `${what} resolved ${show(outcome.value)} although "${feature}" is not declared; it must reject with NotSupportedError`,
    );
  }
  const { error } = outcome;
  check(
    isBatonError(error, "NOT_SUPPORTED"),
    `${what} rejected with ${show(String(error))}, expected a NotSupportedError (code NOT_SUPPORTED)`,
  );
  const refused = error as NotSupportedError;
  check(
    refused.adapter === context.adapter.name,
    `${what}: NotSupportedError names adapter ${show(refused.adapter)}, expected ${show(context.adapter.name)}`,
  );
  check(
    refused.feature === feature,
    `${what}: NotSupportedError names feature ${show(refused.feature)}, expected ${show(feature)}`,
  );
}

/**
 * For a feature the adapter does not declare: its method, when the adapter has one anyway, must
 * refuse with a `NotSupportedError` too, since code may call the adapter directly.
 */
export async function expectMethodRefuses(
  context: AdapterConformanceContext,
  feature: AdapterFeature,
  method: string,
  attempt: (() => Promise<unknown>) | undefined,
): Promise<void> {
  if (attempt === undefined) return;
  await expectNotSupported(context, feature, `adapter.${method}`, attempt);
}

/** The user the suite addresses in the harness's first thread. */
export function sampleUser(context: AdapterConformanceContext): string {
  return context.harness.userIn?.(context.adapter, context.threadId) ?? "U_CONFORMANCE";
}

/** A stream of `parts`, as a model's text stream yields them. */
export async function* textStream(...parts: string[]): AsyncIterable<string> {
  for (const part of parts) yield part;
}
