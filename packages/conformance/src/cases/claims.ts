import assert from "node:assert/strict";
import { defineCases } from "../conformance-case.js";
import { concurrently } from "./support.js";

export const claimCases = defineCases("claims", {
  "the first claim of fresh work wins": async ({ state, longTtlMs }) => {
    const claim = await state.claim("once:summary", longTtlMs);
    assert.ok(claim);
    assert.equal(claim.key, "once:summary");
    assert.ok(Number.isSafeInteger(claim.generation) && claim.generation > 0);
  },

  "of many concurrent claimers exactly one wins": async (ctx) => {
    const claims = await concurrently(25, (i) => ctx.client(i).claim("once:race", ctx.longTtlMs));
    assert.equal(claims.filter((claim) => claim !== null).length, 1);
  },

  "a live claim keeps other claimers out": async ({ state, longTtlMs }) => {
    assert.ok(await state.claim("w", longTtlMs));
    assert.equal(await state.claim("w", longTtlMs), null);
  },

  "a completed record is never claimed again, not even after the claim TTL": async (ctx) => {
    const claim = await ctx.state.claim("w", ctx.shortTtlMs);
    assert.ok(claim);
    assert.equal(await ctx.state.completeClaim(claim), true);
    assert.equal(await ctx.state.claim("w", ctx.shortTtlMs), null);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.claim("w", ctx.shortTtlMs), null);
    assert.equal(await ctx.state.completeClaim(claim), false, "completing twice fails");
    assert.equal(await ctx.state.rearmClaim(claim), false, "a completed record cannot be re-armed");
  },

  "a re-armed record can be claimed again, with a newer generation": async ({
    state,
    longTtlMs,
  }) => {
    const first = await state.claim("w", longTtlMs);
    assert.ok(first);
    assert.equal(await state.rearmClaim(first), true);
    const second = await state.claim("w", longTtlMs);
    assert.ok(second, "re-armed work must be claimable");
    assert.ok(second.generation > first.generation);
    assert.equal(await state.completeClaim(first), false, "the re-armed generation is stale");
    assert.equal(await state.completeClaim(second), true);
  },

  "an expired claim can be taken over": async (ctx) => {
    const first = await ctx.state.claim("w", ctx.shortTtlMs);
    assert.ok(first);
    await ctx.waitOut(ctx.shortTtlMs);
    const second = await ctx.client(1).claim("w", ctx.longTtlMs);
    assert.ok(second, "an expired claim must be takeable");
    assert.ok(second.generation > first.generation);
  },

  "complete and re-arm fail closed on a stale generation": async (ctx) => {
    const stale = await ctx.state.claim("w", ctx.shortTtlMs);
    assert.ok(stale);
    await ctx.waitOut(ctx.shortTtlMs);
    const current = await ctx.client(1).claim("w", ctx.longTtlMs);
    assert.ok(current);
    assert.equal(await ctx.state.rearmClaim(stale), false);
    assert.equal(await ctx.state.completeClaim(stale), false);
    assert.equal(await ctx.state.claim("w", ctx.longTtlMs), null, "the current claim still holds");
    assert.equal(await ctx.client(1).completeClaim(current), true);
  },

  "generations are never reused across keys": async ({ state, longTtlMs }) => {
    const claims = [];
    for (const key of ["a", "b", "c"]) claims.push(await state.claim(key, longTtlMs));
    const generations = claims.map((claim) => claim?.generation ?? 0);
    assert.ok(
      generations.every((generation, i) => i === 0 || generation > (generations[i - 1] ?? 0)),
    );
  },
});
