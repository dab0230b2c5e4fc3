import { randomBytes } from "node:crypto";

/** A Content template created on the fake, in the Content API's own terms. */
export interface FakeTwilioContent {
  readonly sid: string;
  readonly friendlyName: string;
  readonly language: string;
  readonly variables: Readonly<Record<string, string>>;
  /** The content types by their wire names (`"twilio/quick-reply"`, `"twilio/text"`, …). */
  readonly types: Readonly<Record<string, unknown>>;
}

/** A fake's answer: an HTTP status and a JSON body (or none). */
export interface FakeAnswer {
  readonly status: number;
  readonly body?: unknown;
}

interface QuickReplyType {
  readonly body?: unknown;
  readonly actions?: unknown;
}

const CONTENT_HOST = "https://content.twilio.com";

// Twilio's code for each Content API validation failure is not documented one by one; the fake
// answers all of them with one code and a message naming the problem.
function invalid(message: string): FakeAnswer {
  return { status: 400, body: { code: 20001, message, status: 400 } };
}

function textOf(types: Readonly<Record<string, unknown>>): string | undefined {
  for (const name of ["twilio/quick-reply", "twilio/text", "twilio/media"]) {
    const body = (types[name] as { body?: unknown } | undefined)?.body;
    if (typeof body === "string") return body;
  }
  return undefined;
}

/** The problem with a `twilio/quick-reply` type, or undefined when Twilio would take it. */
function quickReplyProblem(type: QuickReplyType): string | undefined {
  if (typeof type.body !== "string" || type.body === "") return "twilio/quick-reply needs a body";
  if ([...type.body].length > 1_024) return "the quick-reply body exceeds 1024 characters";
  const actions = type.actions;
  if (!Array.isArray(actions) || actions.length < 1 || actions.length > 10) {
    return "twilio/quick-reply needs 1 to 10 actions";
  }
  for (const action of actions as Array<{ title?: unknown; id?: unknown }>) {
    if (typeof action.title !== "string" || action.title === "") {
      return "every quick-reply action needs a title";
    }
  }
  return undefined;
}

/**
 * The Content API part of the fake Twilio (`content.twilio.com/v1/Content`): create, fetch, list
 * and delete templates, with the checks Twilio makes of a `twilio/quick-reply` type (a body of at
 * most 1 024 characters, 1 to 10 titled actions). Messages sent with a `ContentSid` are rendered
 * from here, `{{n}}` placeholders filled from `ContentVariables`.
 */
export class FakeContentStore {
  /** Every template created and not deleted, oldest first. */
  readonly contents: FakeTwilioContent[] = [];

  constructor(private readonly accountSid: string) {}

  /** Answers a request under `/v1/Content`, or undefined when the path is not the Content API. */
  handle(
    method: string,
    path: string,
    json: unknown,
    query: URLSearchParams,
  ): FakeAnswer | undefined {
    if (path === "/v1/Content" && method === "POST") return this.create(json);
    if (path === "/v1/Content" && method === "GET") return this.list(query);
    const bySid = /^\/v1\/Content\/(HX\w+)$/.exec(path);
    if (bySid === null) return undefined;
    const index = this.contents.findIndex((content) => content.sid === bySid[1]);
    if (index < 0) return { status: 404, body: { code: 20404, message: "Not found", status: 404 } };
    if (method === "GET") return { status: 200, body: this.resource(this.contents[index]) };
    if (method === "DELETE") {
      this.contents.splice(index, 1);
      return { status: 204 };
    }
    return undefined;
  }

  /** The text a message of template `sid` shows, with `variables` filled in; undefined if no such. */
  render(sid: string, variables: Readonly<Record<string, string>>): string | undefined {
    const content = this.contents.find((candidate) => candidate.sid === sid);
    if (content === undefined) return undefined;
    const text = textOf(content.types) ?? "";
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => {
      return variables[name] ?? content.variables[name] ?? "";
    });
  }

  private create(json: unknown): FakeAnswer {
    if (typeof json !== "object" || json === null) return invalid("the body must be a JSON object");
    const request = json as Record<string, unknown>;
    const { language, types } = request;
    if (typeof language !== "string" || language === "") return invalid("language is required");
    if (typeof types !== "object" || types === null || Object.keys(types).length === 0) {
      return invalid("types must name at least one content type");
    }
    const quickReply = (types as Record<string, unknown>)["twilio/quick-reply"];
    if (quickReply !== undefined) {
      const problem = quickReplyProblem(quickReply as QuickReplyType);
      if (problem !== undefined) return invalid(problem);
    }
    const content: FakeTwilioContent = {
      sid: `HX${randomBytes(16).toString("hex")}`,
      friendlyName: typeof request.friendly_name === "string" ? request.friendly_name : "",
      language,
      variables: (request.variables ?? {}) as Record<string, string>,
      types: types as Record<string, unknown>,
    };
    this.contents.push(content);
    return { status: 201, body: this.resource(content) };
  }

  private list(query: URLSearchParams): FakeAnswer {
    const pageSize = Number(query.get("PageSize") ?? "50");
    const url = `${CONTENT_HOST}/v1/Content?PageSize=${pageSize}`;
    return {
      status: 200,
      body: {
        contents: this.contents.map((content) => this.resource(content)),
        meta: {
          page: 0,
          page_size: pageSize,
          first_page_url: url,
          previous_page_url: null,
          url,
          next_page_url: null,
          key: "contents",
        },
      },
    };
  }

  private resource(content: FakeTwilioContent | undefined): Record<string, unknown> {
    if (content === undefined) return {};
    const now = new Date().toISOString();
    return {
      sid: content.sid,
      account_sid: this.accountSid,
      friendly_name: content.friendlyName,
      language: content.language,
      variables: content.variables,
      types: content.types,
      date_created: now,
      date_updated: now,
      url: `${CONTENT_HOST}/v1/Content/${content.sid}`,
      links: {},
    };
  }
}
