const STOPPED = Symbol("stopped");

/**
 * Reads `stream` until it ends or `signal` aborts — also while it waits for its next part — and
 * then ends quietly, closing the source (an AI SDK stream cancels its request). The answer
 * posted from it is what was read so far. Needed because a thread carries only its handler's
 * own signal (`context.signal`); a user's stop is a signal of its own.
 */
export async function* untilStopped<T>(
  stream: AsyncIterable<T>,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const iterator = stream[Symbol.asyncIterator]();
  const stopped = new Promise<typeof STOPPED>((resolve) => {
    if (signal.aborted) resolve(STOPPED);
    else signal.addEventListener("abort", () => resolve(STOPPED), { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), stopped]);
      if (next === STOPPED || next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a source blocked on its next part may settle only once it sees the abort.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
