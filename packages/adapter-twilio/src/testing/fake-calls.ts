import { randomBytes } from "node:crypto";
import type { FakeAnswer } from "./fake-content.js";
import { twilioErrorBody } from "./fake-twilio-errors.js";

/** A voice call on the fake, and every update a bot made to it. */
export interface FakeTwilioCall {
  readonly sid: string;
  readonly from: string;
  readonly to: string;
  status: string;
  /** The form parameters of each `POST …/Calls/{sid}.json`, oldest first. */
  readonly updates: Array<Readonly<Record<string, string>>>;
}

/**
 * The live-call part of the fake Twilio (`…/Calls/{sid}.json`): calls a test starts with
 * {@link FakeCallStore.startCall}, fetched and updated the way Twilio does — an update takes
 * `Twiml` or `Url` (with an optional `Method`), and Twilio refuses one that has neither.
 */
export class FakeCallStore {
  /** Every call started, oldest first. */
  readonly calls: FakeTwilioCall[] = [];

  constructor(private readonly accountSid: string) {}

  /** Plays an inbound call reaching the bot; resolves nothing, returns the call's `CA…` sid. */
  startCall(from: string, to: string): string {
    const call: FakeTwilioCall = {
      sid: `CA${randomBytes(16).toString("hex")}`,
      from,
      to,
      status: "in-progress",
      updates: [],
    };
    this.calls.push(call);
    return call.sid;
  }

  /** Answers a request for one call, or undefined when the path is not a call's. */
  handle(method: string, path: string, params: Record<string, string>): FakeAnswer | undefined {
    const match = new RegExp(
      `^/2010-04-01/Accounts/${this.accountSid}/Calls/(CA\\w+)\\.json$`,
    ).exec(path);
    if (match === null) return undefined;
    const call = this.calls.find((candidate) => candidate.sid === match[1]);
    if (call === undefined) return { status: 404, body: twilioErrorBody(404, 20404) };
    if (method === "GET") return { status: 200, body: this.resource(call) };
    if (method !== "POST") return undefined;
    if (params.Twiml === undefined && params.Url === undefined && params.Status === undefined) {
      return {
        status: 400,
        body: twilioErrorBody(400, 21205, "A call update needs Url, Twiml or Status"),
      };
    }
    call.updates.push({ ...params });
    if (params.Status === "completed" || params.Status === "canceled") call.status = params.Status;
    return { status: 200, body: this.resource(call) };
  }

  private resource(call: FakeTwilioCall): Record<string, unknown> {
    return {
      sid: call.sid,
      account_sid: this.accountSid,
      from: call.from,
      to: call.to,
      status: call.status,
      direction: "inbound",
      uri: `/2010-04-01/Accounts/${this.accountSid}/Calls/${call.sid}.json`,
    };
  }
}
