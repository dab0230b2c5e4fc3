import { divergencesOf } from "./divergence.js";
import { ADR_COMPATIBILITY, NO_SUBJECT, NO_THREAD_JSON, NO_WORKFLOW_SERDE } from "./reasons.js";

/** `packages/chat/src/message.test.ts`: the Message model. */
export const MESSAGE_DIVERGENCES = divergencesOf("packages/chat/src/message.test.ts", [
  {
    kind: "deferred",
    describe: ["Message", "WORKFLOW_SERIALIZE / WORKFLOW_DESERIALIZE"],
    reason: NO_WORKFLOW_SERDE,
  },
  { kind: "deferred", describe: ["Message", "subject"], reason: NO_SUBJECT },
]);

/** `packages/chat/src/serialization.test.ts`: JSON forms of Thread and Message, revivers. */
export const SERIALIZATION_DIVERGENCES = divergencesOf("packages/chat/src/serialization.test.ts", [
  {
    kind: "deferred",
    titles: [
      "should serialize links without fetchMessage",
      "should omit links when empty",
      "should round-trip links correctly",
    ],
    reason: "not built: Baton's Message has no links (previews of linked messages)",
  },
  {
    kind: "deferred",
    titles: ["should round-trip replied-to message context"],
    reason: "not built: Baton's Message does not carry the message it replies to",
  },
  { kind: "deferred", describe: ["Serialization", "ThreadImpl.toJSON()"], reason: NO_THREAD_JSON },
  {
    kind: "deferred",
    describe: ["Serialization", "ThreadImpl.fromJSON()"],
    reason: NO_THREAD_JSON,
  },
  {
    kind: "deferred",
    describe: ["Serialization", "chat.reviver()"],
    reason: `not built: Baton has no JSON reviver; Message.fromJSON is called explicitly (${NO_THREAD_JSON.replace("not built: ", "")})`,
  },
  {
    kind: "deferred",
    describe: ["Serialization", "standalone reviver()"],
    reason: "not built: Baton has no JSON reviver; Message.fromJSON is called explicitly",
  },
  {
    kind: "deferred",
    describe: ["Serialization", "@workflow/serde integration"],
    reason: NO_WORKFLOW_SERDE,
  },
]);

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
