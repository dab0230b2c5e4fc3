import { Actions, Button, Card, CardText, Field, Fields, LinkButton } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { cardToTwilioText } from "../src/index.js";
import { CUSTOMER, createTwilioHarness, SMS_THREAD } from "./twilio-harness.js";

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

function deployCard() {
  return Card({
    title: "Deploy v2?",
    children: [
      CardText("Ready to ship to production."),
      Fields([Field({ label: "Service", value: "api" })]),
      Actions([
        Button({ id: "approve", label: "Approve", value: "prod" }),
        Button({ id: "reject", label: "Reject", style: "danger" }),
        LinkButton({ url: "https://ci.example/run/7", label: "Open CI" }),
      ]),
    ],
  });
}

describe("cardToTwilioText", () => {
  it("renders cards as plain SMS fallback text", () => {
    const { text, choices } = cardToTwilioText(deployCard());

    expect(text).toBe(
      [
        "Deploy v2?\nReady to ship to production.\nService: api",
        "Open CI: https://ci.example/run/7",
        "Reply with a number:\n1. Approve\n2. Reject",
      ].join("\n\n"),
    );
    expect(choices).toEqual([
      { number: 1, actionId: "approve", value: "prod", label: "Approve" },
      { number: 2, actionId: "reject", label: "Reject" },
    ]);
  });
});

describe("a card posted over SMS is a numbered menu whose replies run its actions", () => {
  it("posts the menu as text and runs onAction for a numeric reply", async () => {
    const h = await createTwilioHarness();
    harnesses.push(h);
    const actions: Array<[string, string | undefined, string, string]> = [];
    const messages: string[] = [];
    h.chat.onAction((event) => {
      actions.push([event.actionId, event.value, event.threadId, event.user.userId]);
    });
    h.chat.onDirectMessage((_thread, message) => {
      messages.push(message.text);
    });

    await h.chat.thread(SMS_THREAD).post(deployCard());
    expect(h.fake.bodiesTo(CUSTOMER)).toEqual([
      "Deploy v2?\nReady to ship to production.\nService: api\n\nOpen CI: https://ci.example/run/7\n\nReply with a number:\n1. Approve\n2. Reject",
    ]);

    await h.deliver(h.sms(" 1 "));
    await h.clock.settle();

    expect(actions).toEqual([["approve", "prod", SMS_THREAD, CUSTOMER]]);
    // A number the menu does not have, and any other text, are ordinary messages.
    await h.deliver(h.sms("7"));
    await h.deliver(h.sms("1 more thing"));
    expect(messages).toEqual(["7", "1 more thing"]);
  });

  it("maps a WhatsApp quick-reply button tap to onAction", async () => {
    const h = await createTwilioHarness();
    harnesses.push(h);
    const actions: Array<[string, string | undefined]> = [];
    h.chat.onAction((event) => {
      actions.push([event.actionId, event.value]);
    });

    const response = await h.deliver(
      h.sms("", {
        From: "whatsapp:+15550000002",
        To: "whatsapp:+15550000001",
        ButtonPayload: "approve",
        ButtonText: "Approve",
      }),
    );
    await h.clock.settle();

    expect(response.status).toBe(200);
    expect(actions).toEqual([["approve", "Approve"]]);
  });
});
