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

  "a key's generations strictly increase across takeover, re-arm and completion": async (ctx) => {
    const generations: number[] = [];
    const lapsed = await ctx.state.claim("w", ctx.shortTtlMs);
    assert.ok(lapsed);
    generations.push(lapsed.generation);
    await ctx.waitOut(ctx.shortTtlMs);
    const takeover = await ctx.client(1).claim("w", ctx.longTtlMs);
    assert.ok(takeover);
    generations.push(takeover.generation);
    assert.equal(await ctx.client(1).rearmClaim(takeover), true);
    const retry = await ctx.client(2).claim("w", ctx.longTtlMs);
    assert.ok(retry);
    generations.push(retry.generation);
    assert.equal(await ctx.client(2).completeClaim(retry), true);
    for (let i = 1; i < generations.length; i += 1) {
      assert.ok(
        (generations[i] ?? 0) > (generations[i - 1] ?? 0),
        `generations must increase: ${generations}`,
      );
    }
    assert.equal(await ctx.state.completeClaim(lapsed), false);
    assert.equal(await ctx.state.completeClaim(takeover), false);
  },

  "lapsed and re-armed claim records are purged, completed and live ones are kept": async (ctx) => {
    const lapsed = await ctx.state.claim("lapsed", ctx.shortTtlMs);
    const rearmed = await ctx.state.claim("rearmed", ctx.longTtlMs);
    const completed = await ctx.state.claim("completed", ctx.shortTtlMs);
    const live = await ctx.state.claim("live", ctx.longTtlMs);
    assert.ok(lapsed && rearmed && completed && live);
    assert.equal(await ctx.state.rearmClaim(rearmed), true);
    assert.equal(await ctx.state.completeClaim(completed), true);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(
      await ctx.storedClaimRecords(),
      2,
      "only the completed and the live record may stay stored",
    );
    assert.equal(await ctx.state.claim("completed", ctx.longTtlMs), null, "completed stays done");
    assert.equal(await ctx.state.claim("live", ctx.longTtlMs), null, "the live claim still holds");
    const again = await ctx.state.claim("lapsed", ctx.longTtlMs);
    assert.ok(again && again.generation > lapsed.generation);
  },
});
