import type { DispatchEvent, Observer } from "@baton/core";

/** A note on the time axis that is not a delivery step, e.g. the bot restarting with new settings. */
export interface TimelineMarker {
  kind: "marker";
  label: string;
  atMs: number;
}

/** What the page's timeline is drawn from: the runtime's dispatch events, and markers. */
export type TimelineEntry = DispatchEvent | TimelineMarker;

type StreamEventName = "entry" | "clear" | "settings";

interface Subscriber {
  send(name: StreamEventName, data: unknown): void;
  close(): void;
}

/**
 * Keeps the last dispatch events (from `onDispatchEvent`) and markers, and streams them to
 * pages: a snapshot on connect, then each entry as it happens. One timeline outlives every
 * `Chat` the playground creates, so a restart shows up as a marker between runs.
 */
export class Timeline {
  /** Give this to every `Chat` as its `observer`. */
  readonly observer: Observer;
  private entries: TimelineEntry[] = [];
  private readonly subscribers = new Set<Subscriber>();

  constructor(private readonly maxEntries = 2_000) {
    this.observer = { onDispatchEvent: (event) => this.add({ ...event }) };
  }

  /** Adds a marker at `atMs`. */
  mark(label: string, atMs: number): void {
    this.add({ kind: "marker", label, atMs });
  }

  /** Forgets every entry; open pages clear theirs too. */
  clear(): void {
    this.entries = [];
    this.notify("clear", {});
  }

  /** Tells open pages the settings changed (another tab, or this one, applied them). */
  announceSettings(settings: unknown): void {
    this.notify("settings", settings);
  }

  /** The kept entries, oldest first. */
  snapshot(): readonly TimelineEntry[] {
    return [...this.entries];
  }

  /**
   * A server-sent event stream: `retry`, a `snapshot` of the kept entries and the current
   * settings, then `entry`, `clear` and `settings` events, with a heartbeat comment every 15 s.
   * It unsubscribes when `signal` aborts or the body is cancelled.
   */
  stream(settings: unknown, signal: AbortSignal): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let stop: (endStream: boolean) => void = () => {};
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        let open = true;
        const write = (text: string) => {
          if (open) controller.enqueue(encoder.encode(text));
        };
        const send = (name: string, data: unknown) => {
          write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
        };
        const heartbeat = setInterval(() => write(": heartbeat\n\n"), 15_000);
        heartbeat.unref?.();
        const subscriber: Subscriber = { send, close: () => stop(true) };
        const onAbort = () => stop(true);
        stop = (endStream) => {
          if (!open) return;
          open = false;
          this.subscribers.delete(subscriber);
          clearInterval(heartbeat);
          signal.removeEventListener("abort", onAbort);
          if (endStream) controller.close();
        };
        write("retry: 1000\n\n");
        send("snapshot", { entries: this.entries, settings, serverNowMs: Date.now() });
        this.subscribers.add(subscriber);
        if (signal.aborted) stop(true);
        else signal.addEventListener("abort", onAbort, { once: true });
      },
      cancel: () => stop(false),
    });
  }

  /** Ends every open stream (the server is closing). */
  closeAll(): void {
    for (const subscriber of [...this.subscribers]) subscriber.close();
  }

  private add(entry: TimelineEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.maxEntries) {
      this.entries.splice(0, this.entries.length - this.maxEntries);
    }
    this.notify("entry", entry);
  }

  private notify(name: StreamEventName, data: unknown): void {
    for (const subscriber of [...this.subscribers]) subscriber.send(name, data);
  }
}
