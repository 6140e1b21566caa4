/**
 * When a failed attempt is tried again: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and
 * 10 h after the previous attempt (Svix's schedule: 9 attempts over about 28 hours), each delay
 * with ±20 % jitter so a recovered subscriber is not hit by every job at once. `Retry-After` wins
 * when it asks for longer (capped at the longest step). `DELIVERY_RETRY_SCALE` compresses the
 * schedule for tests (0.001 turns 5 min into 300 ms).
 */
export const RETRY_DELAYS_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
/** One first attempt plus one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.2;

/** Delay before attempt `attemptsDone + 1`, or null when the retries are used up. */
export function nextRetryDelayMs(
  attemptsDone: number,
  scale: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  const base = RETRY_DELAYS_MS[attemptsDone - 1];
  if (base === undefined) return null;
  const jittered = base * scale * (1 + JITTER * (2 * random() - 1));
  const longest = Math.max(...RETRY_DELAYS_MS) * scale;
  return Math.round(retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, longest)));
}

/** `Retry-After` as milliseconds (delta seconds or an HTTP date), null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
