import {
  type AdapterCapabilities,
  type AdapterFeature,
  defineCapabilities,
  NotSupportedError,
} from "@baton/core";

/**
 * What the mock adapter can do unless a test switches something off: everything, with native
 * streaming. Pass `capabilities: { streaming: "edit", cards: false }` to stand in for a smaller
 * platform; the runtime then takes its fallbacks, and a call that reaches a switched-off method
 * anyway is recorded and rejected with a `NotSupportedError`.
 */
export const MOCK_DEFAULT_CAPABILITIES: AdapterCapabilities = Object.freeze({
  streaming: "native",
  cards: true,
  modals: true,
  ephemeral: true,
  scheduling: true,
  reactions: true,
  editMessage: true,
  deleteMessage: true,
  typing: true,
  history: true,
  openDM: true,
  getUser: true,
  files: true,
  readReceipts: true,
  replies: true,
});

/** The full capability set from a test's overrides; a `ValidationError` names a bad flag. */
export function resolveMockCapabilities(
  overrides: Partial<AdapterCapabilities> | undefined,
): AdapterCapabilities {
  return defineCapabilities({ ...MOCK_DEFAULT_CAPABILITIES, ...overrides });
}

/** Throws the `NotSupportedError` a real adapter raises when `feature` is switched off. */
export function requireMockCapability(
  adapterName: string,
  capabilities: AdapterCapabilities,
  feature: AdapterFeature,
): void {
  if (feature === "streaming" ? capabilities.streaming !== "native" : !capabilities[feature]) {
    throw new NotSupportedError(adapterName, feature);
  }
}
