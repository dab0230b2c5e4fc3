import assert from "node:assert/strict";
import { defineCases } from "../conformance-case.js";

export const subscriptionCases = defineCases("subscriptions", {
  "should subscribe to a thread": async ({ state }) => {
    assert.equal(await state.isSubscribed("slack:C1:T1"), false);
    await state.subscribe("slack:C1:T1");
    assert.equal(await state.isSubscribed("slack:C1:T1"), true);
  },

  "should unsubscribe from a thread": async ({ state }) => {
    await state.subscribe("slack:C1:T1");
    await state.unsubscribe("slack:C1:T1");
    assert.equal(await state.isSubscribed("slack:C1:T1"), false);
  },

  "subscribing twice needs one unsubscribe, and threads are independent": async ({ state }) => {
    await state.subscribe("slack:C1:T1");
    await state.subscribe("slack:C1:T1");
    await state.subscribe("slack:C1:T2");
    await state.unsubscribe("slack:C1:T1");
    assert.equal(await state.isSubscribed("slack:C1:T1"), false);
    assert.equal(await state.isSubscribed("slack:C1:T2"), true);
    await state.unsubscribe("slack:C1:never");
  },

  "a subscription made by one client is seen by another": async ({ clients }) => {
    const [first, last] = [clients[0], clients[clients.length - 1]];
    assert.ok(first && last);
    await first.subscribe("teams:conv:1");
    assert.equal(await last.isSubscribed("teams:conv:1"), true);
  },
});
