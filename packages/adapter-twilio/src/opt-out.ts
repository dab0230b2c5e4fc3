import type { StateAdapter } from "@baton/core";
import type { TwilioTextWebhook } from "./parse.js";

/** What a keyword message asks for. */
export type TwilioOptOutKind = "stop" | "start" | "help";

// Twilio's default opt-out, opt-in and help keywords (Advanced Opt-Out's defaults), matched on
// the whole message in any letter case, as Twilio matches them.
const KEYWORDS: Readonly<Record<string, TwilioOptOutKind>> = {
  STOP: "stop",
  STOPALL: "stop",
  UNSUBSCRIBE: "stop",
  CANCEL: "stop",
  END: "stop",
  QUIT: "stop",
  OPTOUT: "stop",
  REVOKE: "stop",
  START: "start",
  YES: "start",
  UNSTOP: "start",
  HELP: "help",
  INFO: "help",
};

/**
 * The opt-out keyword a message is, if any: Twilio's own `OptOutType` parameter when it sent one
 * (Messaging Services with Advanced Opt-Out), else the message itself as one of Twilio's default
 * keywords (the whole body, trimmed, in any letter case).
 */
export function optOutKindOf(payload: TwilioTextWebhook): TwilioOptOutKind | undefined {
  const type = payload.optOutType;
  if (type === "STOP" || type === "START" || type === "HELP") {
    return type.toLowerCase() as TwilioOptOutKind;
  }
  return KEYWORDS[payload.body.trim().toUpperCase()];
}

/**
 * Who opted out, kept in the Chat's State so every instance refuses to text them: one key per
 * thread (our address + theirs), written on STOP, removed on START, with no expiry — an opt-out
 * lasts until the customer opts in again.
 */
export class OptOutRegistry {
  constructor(private readonly state: () => StateAdapter) {}

  private key(threadId: string): string {
    return `twilio:opt-out:${threadId}`;
  }

  async isOptedOut(threadId: string): Promise<boolean> {
    return (await this.state().get(this.key(threadId))) !== null;
  }

  async record(threadId: string, kind: TwilioOptOutKind, atMs: number): Promise<void> {
    if (kind === "stop") await this.state().set(this.key(threadId), { optedOutAt: atMs });
    if (kind === "start") await this.state().delete(this.key(threadId));
  }
}
