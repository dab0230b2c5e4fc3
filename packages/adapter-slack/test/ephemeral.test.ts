import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Card, CardText, ValidationError } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  decodeSlackEphemeralMessageId,
  encodeSlackEphemeralMessageId,
  SlackApiError,
} from "../src/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
async function harness() {
  const created = await createSlackHarness();
  harnesses.push(created);
  created.fake.reset();
  return created;
}

/** An id built the way upstream's tests build one: `btoa` of the JSON. */
function upstreamEphemeralId(responseUrl: string, userId = "U123") {
  return `ephemeral:1234567890.123456:${btoa(JSON.stringify({ responseUrl, userId }))}`;
}

/** A local server that is not Slack: records every request it gets. */
async function bystander() {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.end("ok");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received };
}

describe("ephemeral message ID encoding", () => {
  it("encodes and decodes ephemeral message IDs for editMessage", async () => {
    const h = await harness();
    const seen: string[] = [];
    h.chat.onAction("eph_btn", (event) => {
      seen.push(event.messageId);
    });
    const responseUrl = `${h.fake.url}/response/actions/T123/456/respond`;
    await h.deliverForm({
      payload: JSON.stringify({
        type: "block_actions",
        trigger_id: "trigger-eph",
        user: { id: "U_EPH_USER", username: "ephuser" },
        container: {
          type: "message",
          message_ts: "1234567890.123456",
          channel_id: "C456",
          is_ephemeral: true,
          thread_ts: "1234567890.000000",
        },
        channel: { id: "C456", name: "general" },
        message: { ts: "1234567890.123456", thread_ts: "1234567890.000000" },
        response_url: responseUrl,
        actions: [{ type: "button", action_id: "eph_btn", value: "clicked" }],
      }),
    });
    await h.settle();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain("ephemeral:");
    expect(decodeSlackEphemeralMessageId(seen[0] as string)).toEqual({
      messageTs: "1234567890.123456",
      responseUrl,
      userId: "U_EPH_USER",
    });
  });

  it("deleteMessage handles ephemeral messageId", async () => {
    const h = await harness();
    h.fake.store.add({
      channel: "C123",
      ts: "1234567890.123456",
      text: "posted",
      user: h.fake.botUserId,
      team: h.fake.teamId,
    });
    // A message id that is not ephemeral still goes to chat.delete.
    await h.adapter.deleteMessage("slack:C123:1234567890.000000", "1234567890.123456");
    expect(h.fake.callsOf("chat.delete")).toHaveLength(1);
    expect(h.fake.store.responses).toEqual([]);
  });

  it("round-trips an id made by encodeSlackEphemeralMessageId", () => {
    const id = encodeSlackEphemeralMessageId(
      "1700000001.000001",
      "https://hooks.slack.com/actions/T1/2/x",
      "U9",
    );
    expect(id.startsWith("ephemeral:1700000001.000001:")).toBe(true);
    expect(decodeSlackEphemeralMessageId(id)).toEqual({
      messageTs: "1700000001.000001",
      responseUrl: "https://hooks.slack.com/actions/T1/2/x",
      userId: "U9",
    });
  });

  it("keeps the {team}:{channel}:{ts} id for an ephemeral container without a response_url", async () => {
    const h = await harness();
    const seen: string[] = [];
    h.chat.onAction((event) => {
      seen.push(event.messageId);
    });
    await h.deliverForm({
      payload: JSON.stringify({
        type: "block_actions",
        team: { id: "T0FAKE0001" },
        user: { id: "U1", username: "one" },
        container: {
          type: "message",
          message_ts: "1.000001",
          channel_id: "C1",
          is_ephemeral: true,
        },
        channel: { id: "C1" },
        actions: [{ type: "button", action_id: "b", value: "v" }],
      }),
    });
    await h.settle();
    expect(seen).toEqual(["T0FAKE0001:C1:1.000001"]);
  });
});

describe("decodeEphemeralMessageId edge cases", () => {
  it("returns null for non-ephemeral message ID", () => {
    expect(decodeSlackEphemeralMessageId("1234567890.123456")).toBeNull();
  });

  it("returns null for ephemeral ID with only 1 part after prefix", () => {
    expect(decodeSlackEphemeralMessageId("ephemeral:")).toBeNull();
  });

  it("decodes a properly encoded ephemeral ID", () => {
    const data = JSON.stringify({
      responseUrl: "https://hooks.slack.com/respond",
      userId: "U123",
    });
    const encoded = `ephemeral:1234567890.123456:${btoa(data)}`;
    expect(decodeSlackEphemeralMessageId(encoded)).toEqual({
      messageTs: "1234567890.123456",
      responseUrl: "https://hooks.slack.com/respond",
      userId: "U123",
    });
  });

  it("handles non-JSON base64 as legacy responseUrl format", () => {
    const encoded = `ephemeral:1234567890.123456:${btoa("https://hooks.slack.com/respond")}`;
    expect(decodeSlackEphemeralMessageId(encoded)).toEqual({
      messageTs: "1234567890.123456",
      responseUrl: "https://hooks.slack.com/respond",
      userId: "",
    });
  });

  it("returns null for invalid base64", () => {
    expect(decodeSlackEphemeralMessageId("ephemeral:1234:!!!invalid-base64!!!")).toBeNull();
  });

  it("returns null for empty data and for JSON without responseUrl and userId", () => {
    expect(decodeSlackEphemeralMessageId("ephemeral:1234.5:")).toBeNull();
    const partial = btoa(JSON.stringify({ responseUrl: "https://hooks.slack.com/r" }));
    expect(decodeSlackEphemeralMessageId(`ephemeral:1234.5:${partial}`)).toBeNull();
  });
});

describe("editMessage via response_url", () => {
  it("sends replace to response_url for ephemeral message", async () => {
    const h = await harness();
    const ephemeralId = upstreamEphemeralId(`${h.fake.url}/response/respond`);
    await h.adapter.editMessage("slack:C123:1234567890.000000", ephemeralId, {
      markdown: "**Updated** [text](https://example.com)\n\n| A | B |\n|---|---|\n| 1 | 2 |",
    });
    expect(h.fake.store.responses.map((call) => call.path)).toEqual(["/response/respond"]);
    const callBody = h.fake.store.responses[0]?.body ?? {};
    expect(callBody).toEqual(
      expect.objectContaining({
        replace_original: true,
        text: expect.stringContaining("*Updated* <https://example.com|text>"),
      }),
    );
    expect(callBody.text).toContain("```");
    expect(callBody).not.toHaveProperty("markdown_text");
    // The edit went only through the response_url: Slack's chat.update cannot reach it.
    expect(h.fake.callsOf("chat.update")).toEqual([]);
  });

  it("keeps the thread and returns an id that edits the message again", async () => {
    const h = await harness();
    const ephemeralId = upstreamEphemeralId(`${h.fake.url}/response/again`);
    const first = await h.adapter.editMessage(
      "slack:C123:1234567890.000000",
      ephemeralId,
      "Working",
    );
    expect(first).toMatchObject({ id: ephemeralId, threadId: "slack:C123:1234567890.000000" });
    await h.adapter.editMessage("slack:C123:1234567890.000000", first.id, "Done");
    expect(h.fake.store.responses.map((call) => call.body)).toEqual([
      { text: "Working", replace_original: true, thread_ts: "1234567890.000000" },
      { text: "Done", replace_original: true, thread_ts: "1234567890.000000" },
    ]);
  });

  it("sends a card as Block Kit with its fallback text", async () => {
    const h = await harness();
    const ephemeralId = upstreamEphemeralId(`${h.fake.url}/response/card`);
    await h.adapter.editMessage(
      "slack:C123:",
      ephemeralId,
      Card({ title: "Order", children: [CardText("Shipped")] }),
    );
    const body = h.fake.store.responses[0]?.body ?? {};
    expect(body.replace_original).toBe(true);
    expect(body.thread_ts).toBeUndefined();
    expect(body.blocks).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "header" })]),
    );
    expect(body.text).toContain("Order");
  });

  it("rejects once Slack stops taking the response_url (5 uses)", async () => {
    const h = await harness();
    const ephemeralId = upstreamEphemeralId(`${h.fake.url}/response/five`);
    for (let use = 1; use <= 5; use += 1) {
      await h.adapter.editMessage("slack:C123:", ephemeralId, `Edit ${use}`);
    }
    await expect(h.adapter.editMessage("slack:C123:", ephemeralId, "Edit 6")).rejects.toThrow(
      SlackApiError,
    );
    expect(h.fake.store.responses).toHaveLength(5);
  });

  it("refuses a response_url that is not Slack's, sending it nothing", async () => {
    const h = await harness();
    const other = await bystander();
    const forged = upstreamEphemeralId(`${other.url}/collect`);
    await expect(h.adapter.editMessage("slack:C123:", forged, "hi")).rejects.toThrow(
      ValidationError,
    );
    const plainHttp = upstreamEphemeralId("http://hooks.slack.com/actions/T1/2/x");
    await expect(h.adapter.editMessage("slack:C123:", plainHttp, "hi")).rejects.toThrow(
      /does not carry a Slack response_url/,
    );
    expect(other.received).toEqual([]);
    expect(h.fake.store.responses).toEqual([]);
    expect(h.fake.callsOf("chat.update")).toEqual([]);
  });
});

describe("deleteMessage via response_url", () => {
  it("sends delete_original to response_url for ephemeral message", async () => {
    const h = await harness();
    const ephemeralId = upstreamEphemeralId(`${h.fake.url}/response/respond`);
    await h.adapter.deleteMessage("slack:C123:1234567890.000000", ephemeralId);
    expect(h.fake.store.responses.map((call) => call.path)).toEqual(["/response/respond"]);
    expect(h.fake.store.responses[0]?.body.delete_original).toBe(true);
    expect(h.fake.callsOf("chat.delete")).toEqual([]);
  });

  it("refuses a forged response_url", async () => {
    const h = await harness();
    const other = await bystander();
    const forged = upstreamEphemeralId(`${other.url}/collect`);
    await expect(h.adapter.deleteMessage("slack:C123:", forged)).rejects.toThrow(ValidationError);
    expect(other.received).toEqual([]);
  });
});

describe("ephemeral messages end to end", () => {
  it("replaces, then deletes, the ephemeral message a user clicked, from the action handler", async () => {
    const h = await harness();
    const responseUrl = `${h.fake.url}/response/actions/T0FAKE0001/77/abc`;
    h.chat.onAction("confirm", async (event) => {
      const edited = await h.adapter.editMessage(
        event.threadId ?? "",
        event.messageId,
        "Confirmed",
      );
      await h.adapter.deleteMessage(event.threadId ?? "", edited.id);
    });
    await h.deliverForm({
      payload: JSON.stringify({
        type: "block_actions",
        team: { id: "T0FAKE0001" },
        user: { id: "U7", username: "seven" },
        container: {
          type: "message",
          message_ts: "1700000000.000100",
          channel_id: "C77",
          is_ephemeral: true,
          thread_ts: "1700000000.000001",
        },
        channel: { id: "C77" },
        response_url: responseUrl,
        actions: [{ type: "button", action_id: "confirm", value: "yes" }],
      }),
    });
    await h.settle();
    expect(h.fake.store.responses).toEqual([
      {
        path: "/response/actions/T0FAKE0001/77/abc",
        body: { text: "Confirmed", replace_original: true, thread_ts: "1700000000.000001" },
      },
      { path: "/response/actions/T0FAKE0001/77/abc", body: { delete_original: true } },
    ]);
  });
});
