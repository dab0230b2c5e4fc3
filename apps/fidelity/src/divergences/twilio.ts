import { divergencesOf } from "./divergence.js";

/** `packages/adapter-twilio/src/*`: upstream's Twilio adapter. */
export const TWILIO_DIVERGENCES = [
  ...divergencesOf("packages/adapter-twilio/src/format/index.test.ts", [
    {
      kind: "divergent",
      titles: ["uses a placeholder for empty bodies"],
      reason:
        "different on purpose: Baton refuses an empty post with a ValidationError before any platform call (core's postable check), and the adapter refuses a Twilio message with neither text nor media, instead of sending a placeholder body",
      link: "docs/adr/0024-twilio-adapter-on-the-twilio-library.md",
    },
  ]),
];
