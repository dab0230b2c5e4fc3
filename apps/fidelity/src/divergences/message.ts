import { divergencesOf } from "./divergence.js";
import { ADR_COMPATIBILITY } from "./reasons.js";

/** `packages/chat/src/message.test.ts`: the Message model. */
export const MESSAGE_DIVERGENCES = divergencesOf("packages/chat/src/message.test.ts", []);

/** `packages/chat/src/serialization.test.ts`: JSON forms of Thread and Message, revivers. */
export const SERIALIZATION_DIVERGENCES = divergencesOf(
  "packages/chat/src/serialization.test.ts",
  [],
);

/** `packages/chat/src/errors.test.ts`: the error classes. */
export const ERROR_DIVERGENCES = divergencesOf("packages/chat/src/errors.test.ts", [
  {
    kind: "divergent",
    titles: ["should be instanceof ChatError and Error", "should be instanceof ChatError"],
    reason:
      'renamed: Baton\'s base class is BatonError, not ChatError; its tests say "is a BatonError and an Error"',
    link: ADR_COMPATIBILITY,
  },
]);
