/**
 * A burst of signed mentions handed to the webhook at once (the issue's benchmark shape, small):
 * each answer waits only for its own acceptance — the one State call before the answer — and
 * not for the other deliveries' runs (lock, handler) or name look-ups, which start after every
 * answer left. Real memory State; the order is the event loop's, so the test is deterministic.
 */
import { describe, expect, it } from "vitest";
import { createSlackHarness } from "./slack-harness.js";

const MENTIONS = 20;

describe("a burst of Slack mentions under deferred dispatch", () => {
  it("answers every mention after its one State call, before any run or name look-up starts, and runs each once", async () => {
    const h = await createSlackHarness({ botUserId: "U0BOT" }, { dispatch: "deferred" });
    const events: string[] = [];
    const state = h.state as unknown as Record<string, unknown>;
    for (const method of ["setIfNotExists", "acquireLock", "get", "mergeObject", "appendToList"]) {
      const original = state[method] as (...args: unknown[]) => unknown;
      state[method] = (...args: unknown[]) => {
        events.push(`state.${method}`);
        return original.apply(h.state, args);
      };
    }
    const handled: string[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      handled.push(message.text);
    });
    const requests = Array.from({ length: MENTIONS }, (_, index) =>
      h.request({
        json: h.envelope({
          type: "app_mention",
          channel: "C0BURST",
          user: "U0SENDER",
          text: `<@U0BOT> question ${index}`,
          ts: `1700000000.${String(index + 1).padStart(6, "0")}`,
        }),
      }),
    );
    try {
      await Promise.all(
        requests.map(async (request) => {
          const response = await h.webhook(request, { waitUntil: h.waitUntil });
          events.push(`answered ${response.status}`);
        }),
      );
      const lastAnswer = events.lastIndexOf("answered 200");
      const beforeLastAnswer = events.slice(0, lastAnswer + 1);
      expect(beforeLastAnswer.filter((e) => e === "answered 200")).toHaveLength(MENTIONS);
      // Acceptance only: the dedupe mark, once per delivery; no lock, no name look-up yet.
      expect(beforeLastAnswer.filter((e) => e !== "answered 200")).toEqual(
        Array.from({ length: MENTIONS }, () => "state.setIfNotExists"),
      );
      expect(handled).toEqual([]);
      await h.settle();
      expect(events.filter((e) => e === "state.acquireLock")).toHaveLength(MENTIONS);
      expect(handled.sort()).toEqual(
        Array.from({ length: MENTIONS }, (_, index) => `@U0BOT question ${index}`).sort(),
      );
      // The sender was looked up after the answers, once for the whole burst.
      expect(h.fake.callsOf("users.info").map((call) => call.args.user)).toEqual(["U0SENDER"]);
    } finally {
      await h.close();
    }
  });
});
