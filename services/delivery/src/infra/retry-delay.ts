/** The pause before the `failures`-th retry of a background loop: doubling from `firstMs`, at most `maxMs`. */
export function retryDelayMs(failures: number, firstMs: number, maxMs: number): number {
  return Math.min(firstMs * 2 ** Math.min(failures - 1, 6), maxMs);
}
