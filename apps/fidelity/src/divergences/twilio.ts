import { divergencesOf } from "./divergence.js";

const VOICE =
  "not built: @baton/adapter-twilio covers SMS, MMS and WhatsApp messaging (issue 15); Twilio Voice (calls, Gather, TwiML for calls, transcriptions) is not part of it";

/** `packages/adapter-twilio/src/*`: upstream's Twilio adapter. */
export const TWILIO_DIVERGENCES = [
  ...divergencesOf("packages/adapter-twilio/src/voice/index.test.ts", [
    { kind: "deferred", describe: ["Twilio voice helpers"], reason: VOICE },
  ]),
  ...divergencesOf("packages/adapter-twilio/src/voice/boundary.test.ts", [
    { kind: "deferred", describe: ["voice import boundary"], reason: VOICE },
  ]),
  ...divergencesOf("packages/adapter-twilio/src/api/index.test.ts", [
    {
      kind: "deferred",
      titles: [
        "updates live calls with TwiML",
        "updates live calls with a redirect URL",
        "rejects ambiguous call updates",
      ],
      reason: VOICE,
    },
  ]),
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
