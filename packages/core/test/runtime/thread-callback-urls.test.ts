import { createFakeClock, createMockAdapter, createTestState } from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Actions, Card, Section } from "../../src/content/cards/card-builders.js";
import { Button } from "../../src/content/cards/card-buttons.js";
import type { CardElement } from "../../src/content/cards/card-types.js";
import type { AdapterCapabilities } from "../../src/contracts/capabilities.js";
import {
  CALLBACK_KEY_PREFIX,
  CALLBACK_TTL_MS,
  CALLBACK_VALUE_PREFIX,
  decodeCallbackValue,
} from "../../src/runtime/callback-urls.js";
import { ThreadImpl } from "../../src/runtime/thread.js";

const THREAD_ID = "mock:C123:T1";
const URL = "https://example.com/hooks/approve";
const postAt = new Date("2030-01-01T00:00:00Z");

async function setup(capabilities: Partial<AdapterCapabilities> = {}) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, capabilities });
  const thread = new ThreadImpl({ adapter, state, threadId: THREAD_ID });
  return { clock, state, adapter, thread };
}

function approvalCard(): CardElement {
  return Card({
    title: "Approve?",
    children: [
      Actions([
        Button({ id: "approve", label: "Approve", value: "order-7", callbackUrl: URL }),
        Button({ id: "reject", label: "Reject" }),
      ]),
    ],
  });
}

/** The first button of the card as the adapter received it, and the State entry it points at. */
async function encodedButton(card: unknown, state: Awaited<ReturnType<typeof setup>>["state"]) {
  const actions = (card as CardElement).children[0] as unknown as {
    children: Record<string, unknown>[];
  };
  const button = actions.children[0] ?? {};
  const token = decodeCallbackValue(button.value as string);
  const stored = token === undefined ? null : await state.get(`${CALLBACK_KEY_PREFIX}${token}`);
  return { button, token, stored, other: actions.children[1] };
}

describe("ThreadImpl", () => {
  describe("callbackUrl processing", () => {
    it("should encode callbackUrl when posting a card", async () => {
      const { thread, adapter, state } = await setup();
      await thread.post(approvalCard());
      const posted = adapter.callsOf("postMessage")[0]?.args[1];
      const { button, token, stored, other } = await encodedButton(posted, state);
      expect(button).not.toHaveProperty("callbackUrl");
      expect(button.value).toBe(`${CALLBACK_VALUE_PREFIX}${token}`);
      expect(token).toMatch(/^[0-9a-f]{16}$/);
      expect(stored).toEqual({
        actionId: "approve",
        url: URL,
        originalValue: "order-7",
        scope: { type: "thread", id: THREAD_ID },
      });
      // A button without a callback URL is left as it was.
      expect(other).toEqual({ type: "button", id: "reject", label: "Reject" });
    });

    it("should encode callbackUrl when posting via postEphemeral with native support", async () => {
      const { thread, adapter, state } = await setup();
      await thread.postEphemeral("U1", approvalCard(), { fallbackToDM: false });
      const posted = adapter.callsOf("postEphemeral")[0]?.args[2];
      const { stored } = await encodedButton(posted, state);
      expect(stored).toMatchObject({
        actionId: "approve",
        scope: { type: "thread", id: THREAD_ID },
      });
    });

    it("should encode callbackUrl when scheduling a card", async () => {
      const { thread, adapter, state } = await setup();
      await thread.schedule(approvalCard(), { postAt });
      const { button, stored } = await encodedButton(adapter.scheduled[0]?.message, state);
      expect(button).not.toHaveProperty("callbackUrl");
      expect(stored).toMatchObject({ url: URL, scope: { type: "thread", id: THREAD_ID } });
    });

    it("should encode callbackUrl when editing a sent message with a card", async () => {
      const { thread, adapter, state } = await setup();
      const sent = await thread.post("Working on it");
      await sent.edit({ card: approvalCard(), fallbackText: "Approve order 7?" });
      const edited = adapter.callsOf("editMessage")[0]?.args[2] as {
        card: CardElement;
        fallbackText: string;
      };
      expect(edited.fallbackText).toBe("Approve order 7?");
      const { stored } = await encodedButton(edited.card, state);
      expect(stored).toMatchObject({
        actionId: "approve",
        scope: { type: "thread", id: THREAD_ID },
      });
    });

    it("should pass plain string posts through unchanged", async () => {
      const { thread, adapter, state } = await setup();
      const writes = vi.spyOn(state, "set");
      await thread.post(`Open ${URL}`);
      expect(adapter.callsOf("postMessage")[0]?.args[1]).toBe(`Open ${URL}`);
      expect(writes).not.toHaveBeenCalled();
    });

    it("should leave cards without callback buttons untouched", async () => {
      const { thread, adapter, state } = await setup();
      const writes = vi.spyOn(state, "set");
      const card = Card({
        title: "Plain",
        children: [Section([Actions([Button({ id: "ok", label: "OK", value: "1" })])])],
      });
      await thread.post(card);
      expect(adapter.callsOf("postMessage")[0]?.args[1]).toEqual(card);
      expect(writes).not.toHaveBeenCalled();
    });

    it("encodes buttons inside sections, each with its own token, kept for 7 days", async () => {
      const { thread, adapter, state, clock } = await setup();
      const card = Card({
        children: [
          Section([
            Actions([
              Button({ id: "a", label: "A", callbackUrl: URL }),
              Button({ id: "b", label: "B", callbackUrl: URL }),
            ]),
          ]),
        ],
      });
      await thread.post(card);
      const posted = adapter.callsOf("postMessage")[0]?.args[1] as CardElement;
      const row = (posted.children[0] as { children: { children: { value: string }[] }[] })
        .children[0];
      const tokens = row?.children.map((button) => decodeCallbackValue(button.value));
      expect(new Set(tokens).size).toBe(2);
      const key = `${CALLBACK_KEY_PREFIX}${tokens?.[0]}`;
      expect(await state.get(key)).not.toHaveProperty("originalValue");
      await clock.advance(CALLBACK_TTL_MS + 1);
      expect(await state.get(key)).toBeNull();
    });

    it("writes no token when the card is sent as text, on an adapter without cards", async () => {
      const { thread, adapter } = await setup({ cards: false });
      await thread.post(approvalCard());
      const posted = adapter.callsOf("postMessage")[0]?.args[1] as { markdown: string };
      expect(posted.markdown).toContain("**Approve?**");
      expect(posted.markdown).not.toContain(URL);
    });
  });
});
