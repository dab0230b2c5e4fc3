import { createHmac } from "node:crypto";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createSigningKey, createTeamsActivityRequest, signJwt } from "../src/testing/index.js";
import { trackHarnesses } from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

/** A harness that records every dispatch and every State write. */
async function guarded() {
  const h = await harnesses.open();
  const dispatched: string[] = [];
  h.chat.onNewMention(async (_thread, message) => {
    dispatched.push(message.text);
  });
  h.chat.onSubscribedMessage(async (_thread, message) => {
    dispatched.push(message.text);
  });
  h.chat.onAction(async (event) => {
    dispatched.push(event.actionId);
  });
  // Every way the State can be written to, so "writing nothing" covers all of them.
  const writes: string[] = [];
  const set = h.state.set.bind(h.state);
  h.state.set = async (key, value, ttlMs) => {
    writes.push(key);
    return set(key, value, ttlMs);
  };
  const setIfNotExists = h.state.setIfNotExists.bind(h.state);
  h.state.setIfNotExists = async (key, value, ttlMs) => {
    writes.push(key);
    return setIfNotExists(key, value, ttlMs);
  };
  const mergeObject = h.state.mergeObject.bind(h.state);
  h.state.mergeObject = async (key, patch, ttlMs) => {
    writes.push(key);
    return mergeObject(key, patch, ttlMs);
  };
  const mentionOf = (text: string) =>
    h.message(`${h.mention.text} ${text}`, { entities: [h.mention.entity] });
  return { h, dispatched, writes, mentionOf };
}

describe("Bot Framework tokens, checked by the Teams SDK with real signatures", () => {
  it("accepts a validly signed activity (the control case)", async () => {
    const { h, dispatched, writes, mentionOf } = await guarded();
    const response = await h.deliver(mentionOf("valid"));
    expect(response.status).toBe(200);
    expect(dispatched).toEqual(["valid"]);
    // The writes the refused cases must not make: references (a merge) and the dedupe mark.
    expect(writes).toEqual(expect.arrayContaining(["teams:user:29:user-1"]));
    expect(writes.length).toBeGreaterThan(1);
  });

  const forgeries: Array<[string, (g: Awaited<ReturnType<typeof guarded>>) => Request]> = [
    [
      "no Authorization header",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({ fake: h.fake, activity: mentionOf("x"), authorization: null }),
    ],
    [
      "an unsigned token (alg none)",
      ({ h, mentionOf }) => {
        const head = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
        const body = Buffer.from(
          JSON.stringify({
            iss: "https://api.botframework.com",
            aud: h.fake.appId,
            exp: Date.now() / 1000 + 600,
            serviceurl: h.fake.serviceUrl,
          }),
        ).toString("base64url");
        return createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          authorization: `Bearer ${head}.${body}.`,
        });
      },
    ],
    [
      "a garbage token",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          authorization: "Bearer not.a.jwt",
        }),
    ],
    [
      "an expired token",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          expiresInSeconds: -3600,
        }),
    ],
    [
      "a token for another app (wrong audience)",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          audience: "another-app-id",
        }),
    ],
    [
      "a token from another issuer",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          issuer: "https://sts.windows.net/evil/",
        }),
    ],
    [
      "a token signed by an unknown key",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          key: createSigningKey(),
        }),
    ],
    [
      "an unknown key that reuses the published kid",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          key: { ...createSigningKey(h.fake.signingKey.kid) },
        }),
    ],
    [
      "a serviceurl claim that differs from the activity's serviceUrl",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          serviceUrl: "https://evil.example.com/",
        }),
    ],
    [
      "a token without a serviceurl claim",
      ({ h, mentionOf }) =>
        createTeamsActivityRequest({ fake: h.fake, activity: mentionOf("x"), serviceUrl: null }),
    ],
    [
      "an HS256 token keyed with the public key",
      ({ h, mentionOf }) => {
        const pem = h.fake.signingKey.publicKey.export({ format: "pem", type: "spki" }).toString();
        const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
        const head = part({ alg: "HS256", typ: "JWT", kid: h.fake.signingKey.kid });
        const body = part({
          iss: "https://api.botframework.com",
          aud: h.fake.appId,
          exp: Math.floor(Date.now() / 1000) + 600,
          serviceurl: h.fake.serviceUrl,
        });
        const mac = createHmac("sha256", pem).update(`${head}.${body}`).digest("base64url");
        return createTeamsActivityRequest({
          fake: h.fake,
          activity: mentionOf("x"),
          authorization: `Bearer ${head}.${body}.${mac}`,
        });
      },
    ],
  ];

  for (const [name, forge] of forgeries) {
    it(`refuses ${name} with 401, dispatching and writing nothing`, async () => {
      const g = await guarded();
      const response = await g.h.webhook(forge(g));
      expect(response.status).toBe(401);
      expect(g.dispatched).toEqual([]);
      expect(g.writes).toEqual([]);
      expect(g.h.fake.calls).toEqual([]);
    });
  }

  it("refuses a valid token carried with a body that points at another service URL", async () => {
    const { h, dispatched } = await guarded();
    // A token minted for the fake's service URL cannot carry a body pointing elsewhere.
    const token = signJwt(h.fake.signingKey, {
      iss: "https://api.botframework.com",
      aud: h.fake.appId,
      exp: Math.floor(Date.now() / 1000) + 600,
      serviceurl: h.fake.serviceUrl,
    });
    const activity = { ...h.message("hijack"), serviceUrl: "https://evil.example.com/" };
    const response = await h.webhook(
      createTeamsActivityRequest({ fake: h.fake, activity, authorization: `Bearer ${token}` }),
    );
    expect(response.status).toBe(401);
    expect(dispatched).toEqual([]);
  });
});

describe("malformed requests", () => {
  it("answers wrong methods, media types and oversized bodies without reaching the SDK", async () => {
    const { h, writes } = await guarded();
    const get = await h.webhook(new Request("https://bot.example.com/api/teams"));
    const form = await h.webhook(
      new Request("https://bot.example.com/api/teams", {
        method: "POST",
        body: "a=b",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    const big = await h.deliver(h.message("x".repeat(300 * 1024)));
    expect([get.status, form.status, big.status]).toEqual([405, 415, 413]);
    expect(writes).toEqual([]);
  });

  it("answers fuzzed bodies, signed or not, with a 4xx and never crashes", async () => {
    const { h, dispatched } = await guarded();
    const bodies = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({
        type: fc.string(),
        serviceUrl: fc.oneof(fc.string(), fc.webUrl()),
        conversation: fc.anything(),
      }),
      fc.record({
        type: fc.constantFrom("message", "invoke", "messageReaction"),
        serviceUrl: fc.constant(h.fake.serviceUrl),
        conversation: fc.record({ id: fc.string() }),
        value: fc.anything(),
        entities: fc.anything(),
        from: fc.anything(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.boolean(), async (body, signed) => {
        const request = createTeamsActivityRequest({
          fake: h.fake,
          activity: body as Record<string, unknown> | string,
          ...(signed ? {} : { authorization: "Bearer forged" }),
        });
        const response = await h.webhook(request);
        if (signed) expect(response.status).toBeLessThan(500);
        else expect(response.status).toBeGreaterThanOrEqual(400);
        if (!signed) expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    expect(dispatched.every((text) => typeof text === "string")).toBe(true);
  });
});
