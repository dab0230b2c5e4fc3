import { createStreamNormalizer } from "../content/from-full-stream.js";
import { chunkText, type StreamChunk } from "../content/from-full-stream-chunks.js";

/**
 * One pass over a posted stream, normalized as `fromFullStream` does, shared by the native path
 * and the fallback: a fallback after an adapter declined continues where it stopped, with the
 * text read so far. Stops at `signal`: once it aborts, the next read ends at once — also while
 * the source is still waiting for a chunk — and the source is closed (`return()`), so an AI SDK
 * stream cancels its request. A consumer that stops early does not close the source; the poster
 * does, with {@link release}, once no one reads it any more.
 */
export class StreamSource {
  private readonly iterator: AsyncIterator<unknown>;
  private readonly normalize = createStreamNormalizer();
  private readonly pending: (string | StreamChunk)[] = [];
  private collected = "";
  private ended = false;

  constructor(
    stream: AsyncIterable<unknown>,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.iterator = stream[Symbol.asyncIterator]();
  }

  /** The text read so far: strings and `markdown_text` chunks. */
  get text(): string {
    return this.collected;
  }

  /** True once `signal` aborted; the stream then yields nothing more. */
  get stopped(): boolean {
    return this.signal?.aborted === true;
  }

  /** Every item, structured chunks included: what a native `adapter.stream` reads. */
  chunks(): AsyncIterable<string | StreamChunk> {
    return { [Symbol.asyncIterator]: () => ({ next: () => this.next(), return: doneResult }) };
  }

  /** Only the text of each item, skipping chunks without text: what post + edit reads. */
  texts(): AsyncIterable<string> {
    const next = async (): Promise<IteratorResult<string>> => {
      for (;;) {
        const result = await this.next();
        if (result.done) return { done: true, value: undefined };
        const text = chunkText(result.value);
        if (text !== "") return { done: false, value: text };
      }
    };
    return { [Symbol.asyncIterator]: () => ({ next, return: doneResult }) };
  }

  /** Ends the pass and closes the source, unless it already ended; idempotent. */
  release(): void {
    if (this.ended) return;
    this.ended = true;
    // Not awaited: a source still waiting for its next chunk may only settle later.
    Promise.resolve()
      .then(() => this.iterator.return?.())
      .catch(() => undefined);
  }

  private async next(): Promise<IteratorResult<string | StreamChunk>> {
    for (;;) {
      if (this.ended || this.stopped) return this.end();
      const queued = this.pending.shift();
      if (queued !== undefined) {
        this.collected += chunkText(queued);
        return { done: false, value: queued };
      }
      const result = await this.untilAborted(this.iterator.next());
      if (result === "aborted") return this.end();
      if (result.done) {
        this.ended = true; // the source finished by itself: nothing to close
        return { done: true, value: undefined };
      }
      this.pending.push(...this.normalize(result.value));
    }
  }

  private untilAborted<T>(pending: Promise<T>): Promise<T | "aborted"> {
    const signal = this.signal;
    if (signal === undefined) return pending;
    return new Promise((resolve, reject) => {
      const onAbort = () => resolve("aborted");
      signal.addEventListener("abort", onAbort, { once: true });
      pending.then(
        (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  private end(): IteratorResult<string | StreamChunk> {
    this.release();
    return { done: true, value: undefined };
  }
}

async function doneResult<T>(): Promise<IteratorResult<T>> {
  return { done: true, value: undefined };
}
