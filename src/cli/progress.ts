/**
 * Progress for a non-TTY (CI logs): a line every `every` items or `intervalMs`, whichever comes
 * first, and none for a run that ends before either.
 */
export function progressTicker(options: { every: number; intervalMs?: number; now?: () => number; write: (line: string) => void }) {
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? 10_000;
  let last = now();
  return (done: number, render: () => string) => {
    const t = now();
    if (done % options.every !== 0 && t - last < interval) return;
    last = t;
    options.write(`${render()}\n`);
  };
}
