import { afterEach, describe, expect, it } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** A Chat whose Slack adapter runs in socket mode against the fake's WebSocket endpoint. */
async function socketHarness() {
  const h = await createSlackHarness({ mode: "socket", appToken: "xapp-1-fake-app-token" });
  harnesses.push(h);
  await h.fake.socket.waitForConnections(1);
  return h;
}

describe("Slack socket mode against the fake's WebSocket endpoint", () => {
  it("connects at initialize with the app token through apps.connections.open", async () => {
    const h = await socketHarness();
    const [open] = h.fake.callsOf("apps.connections.open");
    expect(open?.token).toBe(h.fake.appToken);
    expect(h.fake.socket.connections).toBe(1);
  });

  it("runs an events_api message and acknowledges it after acceptance", async () => {
    const h = await socketHarness();
    const seen: string[] = [];
    h.chat.onNewMention((thread, message) => {
      seen.push(`${thread.id} ${message.text}`);
    });
    const ack = await h.fake.socket.deliver({
      type: "events_api",
      payload: h.envelope({
        type: "app_mention",
        user: "U1",
        channel: "C1",
        text: `<@${h.fake.botUserId}> hi`,
        ts: "1700000000.000100",
      }),
    });
    expect(ack.payload).toEqual({});
    expect(seen).toEqual([`slack:C1:1700000000.000100 @${h.fake.botUserId} hi`]);
  });

  it("runs a retried envelope of an accepted message once", async () => {
    const h = await socketHarness();
    const seen: string[] = [];
    h.chat.onNewMention((_thread, message) => {
      seen.push(message.text);
    });
    const payload = h.envelope({
      type: "app_mention",
      user: "U1",
      channel: "C1",
      text: "once",
      ts: "1700000000.000200",
    });
    await h.fake.socket.deliver({ type: "events_api", payload });
    await h.fake.socket.deliver({
      type: "events_api",
      payload,
      retryAttempt: 1,
      retryReason: "timeout",
    });
    expect(seen).toEqual(["once"]);
    expect(h.fake.socket.acks).toHaveLength(2);
  });

  it("answers a view_submission's response_action in the acknowledgement", async () => {
    const h = await socketHarness();
    h.chat.onModalSubmit("form", () => ({ action: "errors", errors: { name: "Required" } }));
    const ack = await h.fake.socket.deliver({
      type: "interactive",
      payload: {
        type: "view_submission",
        user: { id: "U1" },
        view: { id: "V1", callback_id: "form", state: { values: {} } },
      },
    });
    expect(ack.payload).toEqual({ response_action: "errors", errors: { name: "Required" } });
  });

  it("answers a block_suggestion's options in the acknowledgement", async () => {
    const h = await socketHarness();
    h.chat.onOptionsLoad("who", () => [{ label: "Ann", value: "a" }]);
    const ack = await h.fake.socket.deliver({
      type: "interactive",
      payload: { type: "block_suggestion", user: { id: "U1" }, action_id: "who", value: "an" },
    });
    expect(ack.payload).toEqual({
      options: [{ text: { type: "plain_text", text: "Ann" }, value: "a" }],
    });
  });

  it("acknowledges a slash command at once and runs it", async () => {
    const h = await socketHarness();
    const commands: string[] = [];
    h.chat.onSlashCommand("/deploy", (event) => {
      commands.push(`${event.command} ${event.text} ${event.channelId}`);
    });
    const ack = await h.fake.socket.deliver({
      type: "slash_commands",
      payload: {
        command: "/deploy",
        text: "prod",
        user_id: "U1",
        channel_id: "C9",
        team_id: h.fake.teamId,
      },
    });
    expect(ack.payload).toEqual({});
    await h.chat.shutdown();
    expect(commands).toEqual(["/deploy prod slack:C9"]);
  });

  it("disconnects on chat.shutdown", async () => {
    const h = await socketHarness();
    await h.chat.shutdown();
    while (h.fake.socket.connections > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(h.fake.socket.connections).toBe(0);
  });
});
