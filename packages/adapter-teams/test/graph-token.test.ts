import { createFakeClock } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { cachedToken, GRAPH_TOKEN_REFRESH_MARGIN_MS } from "../src/index.js";

/** A token source that counts mints and hands out tokens living `lifetimeMs`. */
function minter(now: () => number, lifetimeMs: number | undefined) {
  let mints = 0;
  return {
    get mints() {
      return mints;
    },
    mint: async () => {
      mints += 1;
      const text = `token-${mints}`;
      return {
        expiration: lifetimeMs === undefined ? undefined : now() + lifetimeMs,
        toString: () => text,
      };
    },
  };
}

describe("Graph token cache (Baton)", () => {
  it("reuses the client-credentials token until shortly before it expires", async () => {
    const clock = createFakeClock();
    const now = () => clock.now();
    const source = minter(now, 60 * 60 * 1000);
    const token = cachedToken(source.mint, now);
    expect(await token()).toBe("token-1");
    await clock.advance(60 * 60 * 1000 - GRAPH_TOKEN_REFRESH_MARGIN_MS - 1);
    expect(await token()).toBe("token-1");
    await clock.advance(1);
    expect(await token()).toBe("token-2");
    expect(source.mints).toBe(2);
  });

  it("shares one mint among concurrent callers and never caches a failed mint", async () => {
    const clock = createFakeClock();
    const now = () => clock.now();
    const source = minter(now, 60 * 60 * 1000);
    let fail = true;
    const token = cachedToken(async () => {
      if (fail) throw new Error("login refused");
      return source.mint();
    }, now);
    await expect(token()).rejects.toThrow("login refused");
    fail = false;
    const tokens = await Promise.all([token(), token(), token()]);
    expect(tokens).toEqual(["token-1", "token-1", "token-1"]);
    expect(source.mints).toBe(1);
  });

  it("mints per call when the token says nothing about its expiry", async () => {
    const clock = createFakeClock();
    const source = minter(() => clock.now(), undefined);
    const token = cachedToken(source.mint, () => clock.now());
    expect([await token(), await token()]).toEqual(["token-1", "token-2"]);
  });
});
