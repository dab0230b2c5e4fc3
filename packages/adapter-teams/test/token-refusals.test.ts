import type { Logger } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { createSigningKey, createTeamsActivityRequest } from "../src/testing/index.js";
import { TOKEN_REFUSAL_WARN_INTERVAL_MS } from "../src/token-refusals.js";
import { trackHarnesses } from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

/** A harness whose adapter logs into `lines` (debug left out). */
async function logged() {
  const lines: Array<{ level: string; message: string; data: unknown }> = [];
  const at =
    (level: string) =>
    (message: string, data?: unknown): void => {
      if (level !== "debug") lines.push({ level, message, data });
    };
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
  const h = await harnesses.open({ logger });
  return { h, lines };
}

type Harness = Awaited<ReturnType<typeof logged>>["h"];

/** A personal-chat message from Teams, as the Bot Framework documents one. */
function activity(h: Harness) {
  return h.message("hello", {
    conversation: { id: "a:1Xh3bFv", conversationType: "personal", tenantId: "tenant-1" },
  });
}

const forged = {
  expired: (h: Harness) =>
    createTeamsActivityRequest({ fake: h.fake, activity: activity(h), expiresInSeconds: -3600 }),
  unknownKey: (h: Harness) =>
    createTeamsActivityRequest({ fake: h.fake, activity: activity(h), key: createSigningKey() }),
  garbage: (h: Harness) =>
    createTeamsActivityRequest({
      fake: h.fake,
      activity: activity(h),
      authorization: "Bearer not.a.jwt",
    }),
  noHeader: (h: Harness) =>
    createTeamsActivityRequest({ fake: h.fake, activity: activity(h), authorization: null }),
};

describe("logging of requests whose Bot Framework token is refused", () => {
  it.each(Object.entries(forged))(
    "logs one warning and nothing at error level for a forged request (%s)",
    async (_name, forge) => {
      const { h, lines } = await logged();
      const response = await h.webhook(forge(h));
      expect(response.status).toBe(401);
      expect(lines.filter((line) => line.level === "error")).toEqual([]);
      expect(lines).toEqual([
        {
          level: "warn",
          message: "teams: refused an activity whose Bot Framework token failed validation",
          data: expect.objectContaining({ reason: expect.any(String), suppressed: 0 }),
        },
      ]);
    },
  );

  it("names the validator's reason in the warning", async () => {
    const { h, lines } = await logged();
    await h.webhook(forged.expired(h));
    await h.webhook(forged.noHeader(h));
    expect(lines.map((line) => (line.data as { reason: string }).reason)).toEqual([
      "TokenExpiredError",
      "missing Authorization header",
    ]);
  });

  it("warns once per reason every 10 s, then counts the refusals it kept quiet", async () => {
    const { h, lines } = await logged();
    for (let i = 0; i < 5; i += 1) expect((await h.webhook(forged.expired(h))).status).toBe(401);
    expect(lines).toHaveLength(1);
    // Another reason has its own window.
    await h.webhook(forged.unknownKey(h));
    expect(lines).toHaveLength(2);
    await h.clock.advance(TOKEN_REFUSAL_WARN_INTERVAL_MS - 1);
    await h.webhook(forged.expired(h));
    expect(lines).toHaveLength(2);
    await h.clock.advance(1);
    await h.webhook(forged.expired(h));
    expect(lines).toHaveLength(3);
    expect(lines[2]?.data).toEqual(
      expect.objectContaining({ reason: "TokenExpiredError", suppressed: 5 }),
    );
    expect(lines.every((line) => line.level === "warn")).toBe(true);
  });

  it("logs no warning for an accepted request", async () => {
    const { h, lines } = await logged();
    const response = await h.deliver(activity(h));
    expect(response.status).toBe(200);
    // (The fake Graph knows no sender email, which is logged on its own; no token line is.)
    expect(lines.filter((line) => /token|jwt/i.test(line.message))).toEqual([]);
  });
});
