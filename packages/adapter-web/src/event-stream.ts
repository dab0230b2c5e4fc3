import { formatSse, type WebEvent } from "./format.js";

/** Who a stream serves: one user, optionally one of their threads. */
export interface StreamAudience {
  userId: string;
  /** Only this thread's events; all of the user's threads when absent. */
  threadId?: string;
}

interface Subscriber extends StreamAudience {
  send(event: WebEvent): void;
  close(): void;
}

/** Queued bytes past which a stream that does not read is cut off (it reconnects and resyncs). */
const MAX_BUFFERED_BYTES = 1_048_576;

/**
 * The open event streams of the adapter's users. Events of a thread go to every stream of its
 * user that watches it. Sequence numbers increase across all threads, so a page can tell which
 * of a snapshot and an event is newer.
 */
export class WebEventHub {
  private seq = 0;
  private readonly subscribers = new Set<Subscriber>();

  /** The next sequence number, for an event about to be published. */
  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  /** The sequence number of the latest event. */
  get currentSeq(): number {
    return this.seq;
  }

  /** How many streams are open; for tests and health pages. */
  get openStreams(): number {
    return this.subscribers.size;
  }

  /** Sends `event` (which names its thread) to the streams of `userId` that watch that thread. */
  publish(userId: string, event: WebEvent & { threadId: string }): void {
    for (const subscriber of [...this.subscribers]) {
      if (subscriber.userId !== userId) continue;
      if (subscriber.threadId !== undefined && subscriber.threadId !== event.threadId) continue;
      subscriber.send(event);
    }
  }

  /**
   * Opens a server-sent event stream for `audience`: a `retry:` hint, then `initial` events,
   * then live events, with a comment every `heartbeatMs` so proxies keep an idle stream open.
   * The stream unsubscribes when the client goes away (`request`'s signal aborts or the body
   * is cancelled), when it stops reading, or when {@link closeAll} is called.
   */
  open(
    audience: StreamAudience,
    options: {
      initial: readonly WebEvent[];
      heartbeatMs: number;
      reconnectDelayMs: number;
      request?: Request;
    },
  ): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    // A Request's signal only follows its caller's signal while the Request itself is alive,
    // so holding just the signal lets garbage collection silently drop the hang-up.
    let request = options.request;
    let subscriber: Subscriber | undefined;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    const cleanup = () => {
      if (subscriber) this.subscribers.delete(subscriber);
      if (heartbeat !== undefined) clearInterval(heartbeat);
      request?.signal.removeEventListener("abort", onAbort);
      request = undefined;
      subscriber = undefined;
    };
    let onAbort = () => {};
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          let closed = false;
          const write = (text: string) => {
            if (closed) return;
            controller.enqueue(encoder.encode(text));
            // A page that stopped reading would otherwise make us buffer without bound.
            if ((controller.desiredSize ?? 0) < -MAX_BUFFERED_BYTES) close();
          };
          const close = () => {
            if (closed) return;
            closed = true;
            cleanup();
            controller.close();
          };
          onAbort = close;
          if (request?.signal.aborted) {
            closed = true;
            controller.close();
            return;
          }
          request?.signal.addEventListener("abort", onAbort, { once: true });
          write(`retry: ${options.reconnectDelayMs}\n\n`);
          for (const event of options.initial) write(formatSse(event));
          subscriber = { ...audience, send: (event) => write(formatSse(event)), close };
          this.subscribers.add(subscriber);
          heartbeat = setInterval(() => write(": heartbeat\n\n"), options.heartbeatMs);
          // A heartbeat timer must not keep a process alive that is otherwise done.
          heartbeat.unref?.();
        },
        cancel: cleanup,
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 65_536 }),
    );
  }

  /** Ends every open stream; browsers reconnect after their retry delay. */
  closeAll(): void {
    for (const subscriber of [...this.subscribers]) subscriber.close();
  }
}
