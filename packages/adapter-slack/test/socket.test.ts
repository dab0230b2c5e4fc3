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

describe("socket mode - factory validation", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const clean = () => {
    for (const key of Object.keys(process.env))
      if (key.startsWith("SLACK_")) delete process.env[key];
  };

  it("throws without appToken in socket mode", async () => {
    clean();
    const { createSlackAdapter } = await import("../src/index.js");
    expect(() => createSlackAdapter({ mode: "socket", botToken: "xoxb-1" })).toThrow(
      /appToken is required/,
    );
  });

  it("creates adapter with appToken in socket mode", async () => {
    clean();
    const { createSlackAdapter, SlackAdapter } = await import("../src/index.js");
    const adapter = createSlackAdapter({
      mode: "socket",
      appToken: "xapp-1-test",
      botToken: "xoxb-1",
    });
    expect(adapter).toBeInstanceOf(SlackAdapter);
    expect(adapter.isSocketMode).toBe(true);
  });

  it("does not require signingSecret in socket mode", async () => {
    clean();
    const { createSlackAdapter } = await import("../src/index.js");
    expect(() => createSlackAdapter({ mode: "socket", appToken: "xapp-1-test" })).not.toThrow();
    expect(() => createSlackAdapter({ mode: "webhook" })).toThrow(/signingSecret is required/);
  });

  it("rejects multi-workspace config in socket mode", async () => {
    clean();
    const { createSlackAdapter } = await import("../src/index.js");
    expect(() =>
      createSlackAdapter({
        mode: "socket",
        appToken: "xapp-1-test",
        clientId: "1",
        clientSecret: "2",
      }),
    ).toThrow(/cannot be used with mode "socket"/);
  });

  it("isSocketMode returns false for webhook mode", async () => {
    const { createSlackAdapter } = await import("../src/index.js");
    expect(createSlackAdapter({ signingSecret: "s", botToken: "xoxb-1" }).isSocketMode).toBe(false);
  });
});

describe("socket mode - handleWebhook", () => {
  it("returns 405 in socket mode", async () => {
    const h = await socketHarness();
    const response = await h.deliver({ type: "url_verification", challenge: "c" });
    expect(response.status).toBe(405);
  });
});

describe("socket mode - initialize", () => {
  it("creates SocketModeClient and starts on initialize", async () => {
    const h = await socketHarness();
    expect(h.fake.callsOf("apps.connections.open")).toHaveLength(1);
    expect(h.fake.socket.connections).toBe(1);
  });
});

describe("socket mode - routeSocketEvent", () => {
  it("dispatches events_api to processMessage", async () => {
    const h = await socketHarness();
    const seen: string[] = [];
    h.chat.onNewMessage(/.*/, (thread, message) => {
      seen.push(`${thread.id} ${message.text}`);
    });
    await h.fake.socket.deliver({
      type: "events_api",
      payload: h.envelope({
        type: "message",
        user: "U1",
        channel: "C7",
        text: "over the socket",
        ts: "1700000000.000300",
      }),
    });
    expect(seen).toEqual(["slack:C7:1700000000.000300 over the socket"]);
  });

  it("dispatches slash_commands to processSlashCommand", async () => {
    const h = await socketHarness();
    const commands: string[] = [];
    h.chat.onSlashCommand((event) => {
      commands.push(`${event.command} ${event.text}`);
    });
    await h.fake.socket.deliver({
      type: "slash_commands",
      payload: { command: "/ask", text: "why", user_id: "U1", channel_id: "C1" },
    });
    await h.chat.shutdown();
    expect(commands).toEqual(["/ask why"]);
  });

  it("dispatches interactive payloads to processAction", async () => {
    const h = await socketHarness();
    const actions: string[] = [];
    h.chat.onAction((event) => {
      actions.push(`${event.actionId}=${event.value} ${event.thread?.id}`);
    });
    const ack = await h.fake.socket.deliver({
      type: "interactive",
      payload: {
        type: "block_actions",
        user: { id: "U1" },
        channel: { id: "C1" },
        message: { ts: "1700000000.000400" },
        actions: [{ action_id: "approve", value: "yes" }],
      },
    });
    expect(ack.payload).toEqual({});
    await h.chat.shutdown();
    expect(actions).toEqual(["approve=yes slack:C1:1700000000.000400"]);
  });

  it("acks interactive with response payload for view_submission", async () => {
    const h = await socketHarness();
    h.chat.onModalSubmit("form", () => ({ action: "clear" }));
    const ack = await h.fake.socket.deliver({
      type: "interactive",
      payload: {
        type: "view_submission",
        user: { id: "U1" },
        view: { id: "V1", callback_id: "form", state: { values: {} } },
      },
    });
    expect(ack.payload).toEqual({ response_action: "clear" });
  });

  it("processes retries like first deliveries (dedupe drops true duplicates)", async () => {
    const h = await socketHarness();
    const seen: string[] = [];
    h.chat.onNewMessage(/.*/, (_thread, message) => {
      seen.push(message.text);
    });
    // A retry whose first delivery never arrived runs; a retry of one that ran does not.
    const lost = h.envelope({
      type: "message",
      user: "U1",
      channel: "C1",
      text: "first seen as a retry",
      ts: "1700000000.000500",
    });
    await h.fake.socket.deliver({
      type: "events_api",
      payload: lost,
      retryAttempt: 1,
      retryReason: "timeout",
    });
    await h.fake.socket.deliver({
      type: "events_api",
      payload: lost,
      retryAttempt: 2,
      retryReason: "timeout",
    });
    expect(seen).toEqual(["first seen as a retry"]);
  });
});

describe("socket mode - routeSocketEvent (deferred dispatch)", () => {
  it("acks events_api before processing", async () => {
    const h = await createSlackHarness(
      { mode: "socket", appToken: "xapp-1-fake-app-token" },
      { dispatch: "deferred" },
    );
    harnesses.push(h);
    await h.fake.socket.waitForConnections(1);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const events: string[] = [];
    h.chat.onNewMessage(/.*/, async () => {
      events.push("handler started");
      await gate;
      events.push("handler done");
    });
    await h.fake.socket.deliver({
      type: "events_api",
      payload: h.envelope({
        type: "message",
        user: "U1",
        channel: "C1",
        text: "slow",
        ts: "1700000000.000600",
      }),
    });
    events.push("acked");
    expect(events).not.toContain("handler done");
    release();
    await h.chat.shutdown();
    expect(events.at(-1)).toBe("handler done");
    expect(events).toContain("acked");
  });
});

describe("socket mode - disconnect", () => {
  it("calls socketClient.disconnect()", async () => {
    const h = await socketHarness();
    await h.adapter.disconnect();
    while (h.fake.socket.connections > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(h.fake.socket.connections).toBe(0);
  });

  it("is a no-op when not connected", async () => {
    const { createSlackAdapter } = await import("../src/index.js");
    const adapter = createSlackAdapter({ signingSecret: "s", botToken: "xoxb-1" });
    await expect(adapter.disconnect()).resolves.toBeUndefined();
  });
});
