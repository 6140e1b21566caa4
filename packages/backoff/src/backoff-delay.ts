/**
 * The one retry schedule of chaingate's background work (relays, consume loops, reconnects,
 * start-up waits, redeliveries): the pause doubles from `firstMs` with every failure in a row and
 * stays at `maxMs` once it got there.
 */
export interface BackoffSchedule {
  /** The pause after the first failure. */
  firstMs: number;
  /** The longest pause, however many failures came in a row. */
  maxMs: number;
}

/** Above this exponent the doubling has long passed any sensible maximum (and 2 ** n overflows later). */
const MAX_DOUBLINGS = 30;

/** The pause after the `failures`-th failure in a row (1 = the first): `firstMs · 2^(failures−1)`, at most `maxMs`. */
export function backoffDelayMs(failures: number, schedule: BackoffSchedule): number {
  const doublings = Math.min(Math.max(failures - 1, 0), MAX_DOUBLINGS);
  return Math.min(schedule.firstMs * 2 ** doublings, schedule.maxMs);
}
