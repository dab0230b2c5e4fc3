/**
 * The `fraction` quantile (0–1) of `samples` by the nearest-rank method: a value that was
 * actually measured, never an interpolation. `undefined` for no samples.
 */
export function quantile(samples: readonly number[], fraction: number): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

/**
 * Runs `work(item)` for every item with at most `limit` in flight, in order of `items`.
 * Resolves when all have finished; `work` is expected not to reject.
 */
export async function runWithConcurrency<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  });
  await Promise.all(lanes);
}
