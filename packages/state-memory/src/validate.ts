// The reference backend's argument checks live in core, shared by every backend.
export {
  assertEnqueueOptions,
  assertOptionalTtlMs,
  assertPlainObject,
  assertStateKey as assertKey,
  assertTtlMs,
} from "@baton/core";
