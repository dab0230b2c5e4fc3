import { RateLimitError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { retryAfterMsOf, TeamsApiError, teamsApiError, teamsFailureOf } from "../src/index.js";

/** An SDK failure as axios raises it. */
function axiosError(status: number, headers: Record<string, string> = {}, error?: object) {
  return Object.assign(new Error(`Request failed with status code ${status}`), {
    response: { status, headers, data: error === undefined ? undefined : { error } },
  });
}

// Upstream maps connector failures onto AuthenticationError / PermissionError / NetworkError /
// AdapterRateLimitError from @chat-adapter/shared; Baton has one AdapterError family (ADR 0023):
// a TeamsApiError that keeps the status and connector code, and core's RateLimitError for 429.
describe("Teams API errors (Baton, ADR 0023)", () => {
  it("keeps the status and the connector's code and message for 401, 403 and 404", () => {
    for (const status of [401, 403, 404]) {
      const error = teamsApiError(
        "send an activity",
        axiosError(status, {}, { code: "Code", message: "nope" }),
      );
      expect(error).toBeInstanceOf(TeamsApiError);
      expect(error).toMatchObject({ status, connectorCode: "Code", adapter: "teams" });
      expect(error.message).toContain("nope");
    }
  });

  it("turns 429 into a RateLimitError with the Retry-After Teams sent", () => {
    const error = teamsApiError("send", axiosError(429, { "retry-after": "3" }), 0);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_000);
    expect(retryAfterMsOf("Thu, 01 Jan 1970 00:00:05 GMT", 1_000)).toBe(4_000);
  });

  it("reads the status from innerHttpError, statusCode, status or code, in that order", () => {
    expect(teamsFailureOf({ innerHttpError: { statusCode: 401 } }).status).toBe(401);
    expect(teamsFailureOf({ statusCode: 403, status: 500 }).status).toBe(403);
    expect(teamsFailureOf({ status: 404 }).status).toBe(404);
    expect(teamsFailureOf({ code: 500 }).status).toBe(500);
  });

  it("still gives a TeamsApiError for unknown, null and undefined failures", () => {
    for (const thrown of [null, undefined, "boom", new Error("network down")]) {
      const error = teamsApiError("send", thrown);
      expect(error).toBeInstanceOf(TeamsApiError);
      expect((error as TeamsApiError).status).toBeUndefined();
    }
    expect(teamsApiError("send", new Error("network down")).message).toContain("network down");
  });
});
