/** The nearest-rank percentile of ascending `sorted` values (p in 0..100): the latency benches' one definition. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
