import { describe, expect, it } from "vitest";
import {
  AdmissionRejectedError,
  readWebhookBody,
  webhookErrorResponse,
  webhookProblem,
} from "../../src/index.js";

/** A request whose body arrives in `chunks` and declares no length, as a chunked upload does. */
function streamed(chunks: string[]): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[pulled];
      pulled += 1;
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
  });
  const request = new Request("http://localhost/hook", {
    method: "POST",
    body,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("readWebhookBody", () => {
  it("reads a body within the limit as UTF-8 text", async () => {
    const request = new Request("http://localhost/hook", { method: "POST", body: "héllo" });

    expect(await readWebhookBody(request, 64)).toBe("héllo");
  });

  it("refuses a body whose declared length is over the limit without reading it", async () => {
    const request = new Request("http://localhost/hook", {
      method: "POST",
      headers: { "content-length": "1000" },
      body: "small, but the header says otherwise",
    });

    expect(await readWebhookBody(request, 64)).toBeUndefined();
    expect(request.bodyUsed).toBe(false);
  });

  it("stops reading a streamed body as soon as it passes the limit", async () => {
    const { request, pulled } = streamed(["a".repeat(40), "b".repeat(40), "c".repeat(40)]);

    expect(await readWebhookBody(request, 64)).toBeUndefined();
    expect(pulled()).toBeLessThanOrEqual(3);
  });

  it("reads a streamed body of several chunks that fits", async () => {
    const { request } = streamed(["one ", "two ", "three"]);

    expect(await readWebhookBody(request, 64)).toBe("one two three");
  });

  it("gives an empty string for a request without a body", async () => {
    expect(await readWebhookBody(new Request("http://localhost/hook"), 64)).toBe("");
  });
});

describe("webhookProblem", () => {
  it("answers in the same JSON shape as webhookErrorResponse", async () => {
    const problem = webhookProblem(401, "UNAUTHORIZED", "the signature does not match");
    const error = webhookErrorResponse(
      new AdmissionRejectedError("instance", 1_000, "at capacity"),
    );

    expect(problem.status).toBe(401);
    expect(problem.headers.get("content-type")).toBe("application/json");
    expect(await problem.json()).toEqual({
      ok: false,
      code: "UNAUTHORIZED",
      error: "the signature does not match",
    });
    expect(Object.keys(await error.json()).sort()).toEqual(["code", "error", "ok"]);
  });
});
