import twilio from "twilio";

type VoiceResponse = InstanceType<typeof twilio.twiml.VoiceResponse>;
type GatherAttributes = Parameters<VoiceResponse["gather"]>[0];
type SayAttributes = Parameters<VoiceResponse["say"]>[0];

/** An inbound voice call webhook (Twilio's `CallSid`, `From`/`Caller`, `To`/`Called`, …). */
export interface TwilioVoiceCall {
  readonly callSid: string;
  readonly accountSid: string | undefined;
  /** The caller's number (`From`, or `Caller` when only that is sent). */
  readonly from: string | undefined;
  /** The number called (`To`, or `Called`). */
  readonly to: string | undefined;
  /** `ringing`, `in-progress`, `completed`, … when Twilio sends `CallStatus`. */
  readonly callStatus: string | undefined;
  /** `inbound`, `outbound-api`, … when Twilio sends `Direction`. */
  readonly direction: string | undefined;
}

/** Where a transcription came from: `<Gather>` speech, real-time transcription, a recording. */
export type TwilioTranscriptionSource = "gather" | "realtime" | "recording";

/** Words a caller said, as one of Twilio's three speech callbacks reports them. */
export interface TwilioVoiceTranscription {
  readonly source: TwilioTranscriptionSource;
  readonly callSid: string | undefined;
  readonly text: string;
  /** Twilio's confidence, 0 to 1, when it reports one. */
  readonly confidence: number | undefined;
  readonly from: string | undefined;
  readonly to: string | undefined;
  /** The transcription's sid (`GT…` real-time, `TR…` recording). */
  readonly transcriptionSid: string | undefined;
  /** Real-time only: always true here, since partial results are skipped. */
  readonly final: boolean;
  /** Real-time only: the event's order within the transcription. */
  readonly sequenceId: string | undefined;
  /** Real-time only: `inbound_track` (the caller) or `outbound_track`. */
  readonly track: string | undefined;
  /** Real-time only: Twilio's `TranscriptionEvent` (`transcription-content`). */
  readonly transcriptionEvent: string | undefined;
  readonly timestamp: string | undefined;
}

/** How {@link gatherSpeechTwilioResponse} asks the caller to speak. */
export interface TwilioGatherSpeechOptions {
  /** What the caller hears first (spoken with `<Say>` inside the `<Gather>`). */
  readonly prompt: string;
  /** Where Twilio POSTs the `SpeechResult`; it is called even when nothing was said. */
  readonly actionUrl: string;
  /** The speech language and the prompt's (e.g. `en-US`). */
  readonly language?: string;
  /** The `<Say>` voice (e.g. `Polly.Joanna-Neural`). */
  readonly voice?: string;
  /** Twilio's speech model (`phone_call`, `experimental_conversations`, …). */
  readonly speechModel?: string;
  /** Seconds to wait for speech to begin. */
  readonly timeoutSeconds?: number;
  /** Silence that ends the speech: `auto` or a number of seconds. */
  readonly speechTimeout?: string;
  /** Words or phrases to favour in recognition. */
  readonly hints?: readonly string[];
  /** Whether Twilio masks profanity in the result (Twilio's default: true). */
  readonly profanityFilter?: boolean;
}

const TWIML_CONTENT_TYPE = "text/xml;charset=UTF-8";

function optional(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === "" ? undefined : value;
}

function numberOf(value: unknown): number | undefined {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : undefined;
}

/** Reads a voice call webhook; throws a `TypeError` naming the problem when `CallSid` is absent. */
export function parseTwilioVoiceCall(params: URLSearchParams): TwilioVoiceCall {
  const callSid = optional(params, "CallSid");
  if (callSid === undefined) throw new TypeError("a Twilio voice webhook needs a CallSid");
  return {
    callSid,
    accountSid: optional(params, "AccountSid"),
    from: optional(params, "From") ?? optional(params, "Caller"),
    to: optional(params, "To") ?? optional(params, "Called"),
    callStatus: optional(params, "CallStatus"),
    direction: optional(params, "Direction"),
  };
}

function base(params: URLSearchParams, source: TwilioTranscriptionSource) {
  return {
    source,
    callSid: optional(params, "CallSid"),
    from: optional(params, "From"),
    to: optional(params, "To"),
    transcriptionSid: optional(params, "TranscriptionSid"),
    final: true,
    sequenceId: undefined,
    track: undefined,
    transcriptionEvent: undefined,
    timestamp: optional(params, "Timestamp"),
  };
}

/**
 * The caller's words from any of Twilio's speech callbacks — a `<Gather input="speech">` result
 * (`SpeechResult`), a real-time transcription event (`TranscriptionData`) or a recording's
 * transcription (`TranscriptionText`) — or `null` when the callback carries none: a partial
 * real-time result, another real-time event (started, stopped), or an unreadable payload.
 */
export function parseTwilioVoiceTranscription(
  params: URLSearchParams,
): TwilioVoiceTranscription | null {
  const speech = optional(params, "SpeechResult");
  if (speech !== undefined) {
    return {
      ...base(params, "gather"),
      text: speech,
      confidence: numberOf(optional(params, "Confidence")),
    };
  }
  const data = optional(params, "TranscriptionData");
  if (data !== undefined) {
    const event = optional(params, "TranscriptionEvent");
    if (event !== undefined && event !== "transcription-content") return null;
    if (optional(params, "Final")?.toLowerCase() !== "true") return null;
    let parsed: { transcript?: unknown; confidence?: unknown };
    try {
      parsed = JSON.parse(data) as typeof parsed;
    } catch {
      return null;
    }
    if (typeof parsed?.transcript !== "string") return null;
    return {
      ...base(params, "realtime"),
      text: parsed.transcript,
      confidence: numberOf(parsed.confidence),
      sequenceId: optional(params, "SequenceId"),
      track: optional(params, "Track"),
      transcriptionEvent: event,
    };
  }
  const recorded = optional(params, "TranscriptionText");
  if (recorded !== undefined) {
    return { ...base(params, "recording"), text: recorded, confidence: undefined };
  }
  return null;
}

/** A TwiML document (built with `twilio.twiml.VoiceResponse`, or a string) as an HTTP answer. */
export function twimlResponse(twiml: VoiceResponse | string, status = 200): Response {
  return new Response(typeof twiml === "string" ? twiml : twiml.toString(), {
    status,
    headers: { "content-type": TWIML_CONTENT_TYPE },
  });
}

/** An empty `<Response/>`: Twilio does nothing more (for a call, it hangs up). */
export function emptyTwilioResponse(): Response {
  return twimlResponse(new twilio.twiml.VoiceResponse());
}

/** A `<Response>` that speaks `text` to the caller with `<Say>`. */
export function sayTwilioResponse(
  text: string,
  options: { readonly voice?: string; readonly language?: string } = {},
): Response {
  const response = new twilio.twiml.VoiceResponse();
  response.say(sayAttributes(options), text);
  return twimlResponse(response);
}

function sayAttributes(options: { voice?: string; language?: string }): SayAttributes {
  return {
    ...(options.voice === undefined ? {} : { voice: options.voice }),
    ...(options.language === undefined ? {} : { language: options.language }),
  } as SayAttributes;
}

/**
 * A `<Gather input="speech">` that speaks `prompt` and POSTs what the caller says to
 * `actionUrl` — also when they say nothing (`actionOnEmptyResult`), so the bot always gets the
 * turn back. Parse the callback with {@link parseTwilioVoiceTranscription}.
 */
export function gatherSpeechTwilioResponse(options: TwilioGatherSpeechOptions): Response {
  const attributes = {
    input: ["speech"],
    action: options.actionUrl,
    method: "POST",
    actionOnEmptyResult: true,
    ...(options.language === undefined ? {} : { language: options.language }),
    ...(options.speechModel === undefined ? {} : { speechModel: options.speechModel }),
    ...(options.timeoutSeconds === undefined ? {} : { timeout: options.timeoutSeconds }),
    ...(options.speechTimeout === undefined ? {} : { speechTimeout: options.speechTimeout }),
    ...(options.hints === undefined ? {} : { hints: options.hints.join(",") }),
    ...(options.profanityFilter === undefined ? {} : { profanityFilter: options.profanityFilter }),
  } as GatherAttributes;
  const response = new twilio.twiml.VoiceResponse();
  response.gather(attributes).say(sayAttributes(options), options.prompt);
  return twimlResponse(response);
}

/** `text` safe inside XML content and attribute values (all five predefined entities). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ENTITIES[char] ?? char);
}

const XML_ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
