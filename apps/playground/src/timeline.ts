import type { DispatchEvent, Observer } from "@baton/core";

/** A note on the time axis that is not a delivery step, e.g. the bot restarting with new settings. */
export interface TimelineMarker {
  kind: "marker";
  label: string;
  atMs: number;
}

/** A dispatch event, with the instance of the bot ("A", "B") whose runtime reported it. */
export type InstanceDispatchEvent = DispatchEvent & { instance?: string };

/**
 * A handler run's attempt, reported by the run itself as it starts (it reads `context.attempt`
 * and `context.interrupted`): the page puts it on the run bar that `run-started` opened.
 */
export interface TimelineAttempt {
  kind: "attempt";
  deliveryKey: string;
  instance: string;
  attempt: number;
  /** Why the previous attempt ended (`context.interrupted.reason`), from attempt 2 on. */
  interruptedReason?: string;
  atMs: number;
}

/** An instance of the bot was killed, shut down or (re)started. */
export interface TimelineInstanceChange {
  kind: "instance";
  instance: string;
  change: "killed" | "shut down" | "started";
  atMs: number;
}

/** What the page's timeline is drawn from: the runtime's dispatch events, runs' attempts, markers. */
export type TimelineEntry =
  | InstanceDispatchEvent
  | TimelineMarker
  | TimelineAttempt
  | TimelineInstanceChange;

type StreamEventName = "entry" | "clear" | "settings" | "instances";

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
  private entries: TimelineEntry[] = [];
  private readonly subscribers = new Set<Subscriber>();

  constructor(private readonly maxEntries = 2_000) {}

  /** The `observer` of a `Chat` of instance `instance`: its events are tagged with the name. */
  observerFor(instance: string): Observer {
    return { onDispatchEvent: (event) => this.add({ ...event, instance }) };
  }

  /** Adds a marker at `atMs`. */
  mark(label: string, atMs: number): void {
    this.add({ kind: "marker", label, atMs });
  }

  /** Adds a run's attempt or an instance's change. */
  note(entry: TimelineAttempt | TimelineInstanceChange): void {
    this.add(entry);
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

  /** Tells open pages the instances changed (killed, shut down, restarted, routing). */
  announceInstances(instances: unknown): void {
    this.notify("instances", instances);
  }

  /** The kept entries, oldest first. */
  snapshot(): readonly TimelineEntry[] {
    return [...this.entries];
  }

  /**
   * A server-sent event stream: `retry`, a `snapshot` of the kept entries with `current` (the
   * settings and instances), then `entry`, `clear`, `settings` and `instances` events, with a
   * heartbeat comment every 15 s. It unsubscribes when `signal` aborts or the body is cancelled.
   */
  stream(current: Record<string, unknown>, signal: AbortSignal): ReadableStream<Uint8Array> {
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
        send("snapshot", { ...current, entries: this.entries, serverNowMs: Date.now() });
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
