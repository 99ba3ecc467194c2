/**
 * Runs `job` on every item, at most `limit` at a time, starting them in order; resolves once all
 * have finished (rejects with the first failure, as Promise.all does).
 */
export async function eachLimited<T>(items: readonly T[], limit: number, job: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await job(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
}
