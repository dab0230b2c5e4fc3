import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";

/** An envelope the fake sends over Socket Mode, as Slack frames one. */
export interface FakeSlackEnvelope {
  /** `events_api`, `interactive` or `slash_commands`. */
  readonly type: string;
  /** The event_callback body, the interaction payload, or the slash command's fields. */
  readonly payload: unknown;
  /** Slack's retry counter (0 for a first delivery). */
  readonly retryAttempt?: number;
  readonly retryReason?: string;
}

/** What the app answered an envelope with (Socket Mode's acknowledgement). */
export interface FakeSlackAck {
  readonly envelopeId: string;
  /** The acknowledgement's payload: `{}` for a bare ack, a `response_action` or options. */
  readonly payload: Record<string, unknown>;
}

/** The Socket Mode side of the fake: a WebSocket endpoint `apps.connections.open` points at. */
export class FakeSlackSocket {
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private readonly waiting = new Map<string, (ack: FakeSlackAck) => void>();
  private readonly tickets = new Set<string>();
  /** Every acknowledgement received, in order. */
  readonly acks: FakeSlackAck[] = [];

  constructor(
    http: Server,
    private readonly origin: () => string,
  ) {
    http.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? "/", "http://fake");
      const ticket = url.searchParams.get("ticket") ?? "";
      if (url.pathname !== "/socket" || !this.tickets.delete(ticket)) {
        socket.destroy();
        return;
      }
      this.server.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
    });
  }

  /** A one-time WebSocket URL, as `apps.connections.open` answers. */
  openUrl(): string {
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return `${this.origin().replace(/^http/, "ws")}/socket?ticket=${ticket}`;
  }

  /** How many app connections are open. */
  get connections(): number {
    return this.sockets.size;
  }

  /** Resolves once `count` app connections are open (polls the event loop, no timers). */
  async waitForConnections(count = 1): Promise<void> {
    while (this.sockets.size < count) await new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * Sends an envelope to every connected app and resolves with the first acknowledgement of it.
   * Rejects when no app is connected.
   */
  deliver(envelope: FakeSlackEnvelope): Promise<FakeSlackAck> {
    if (this.sockets.size === 0) return Promise.reject(new Error("no Socket Mode connection"));
    const envelopeId = randomUUID();
    const frame = JSON.stringify({
      envelope_id: envelopeId,
      type: envelope.type,
      payload: envelope.payload,
      accepts_response_payload: envelope.type !== "events_api",
      ...(envelope.type === "events_api"
        ? {
            retry_attempt: envelope.retryAttempt ?? 0,
            retry_reason: envelope.retryReason ?? "",
          }
        : {}),
    });
    const acked = new Promise<FakeSlackAck>((resolve) => this.waiting.set(envelopeId, resolve));
    for (const socket of this.sockets) socket.send(frame);
    return acked;
  }

  /** Closes every connection (the app's client may reconnect). */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on("close", () => this.sockets.delete(ws));
    ws.on("message", (data) => {
      let message: { envelope_id?: unknown; payload?: unknown };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return;
      }
      if (typeof message.envelope_id !== "string") return;
      const ack: FakeSlackAck = {
        envelopeId: message.envelope_id,
        payload: (message.payload ?? {}) as Record<string, unknown>,
      };
      this.acks.push(ack);
      this.waiting.get(ack.envelopeId)?.(ack);
      this.waiting.delete(ack.envelopeId);
    });
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: this.sockets.size,
        connection_info: { app_id: "A0FAKEAPP1" },
      }),
    );
  }
}
