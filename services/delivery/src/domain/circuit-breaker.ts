/**
 * The circuit breaker of one webhook: after `threshold` attempts in a row that got no answer at all
 * (a timeout, a refused or reset connection), the webhook is "open": at most one attempt of it is
 * in flight (over every replica) and each next one waits `coolDownMs` after the last ended, so a
 * dead endpoint holds at most one slot for one attempt's timeout in every timeout plus cool-down.
 * Any HTTP answer (even an error status) closes it. Jobs keep their retry schedule and attempt
 * count: a job that is due while its webhook is open waits; only the spacing changes.
 */
import type { AttemptAnswer } from "./attempt-outcome.ts";

export interface BreakerSettings {
  /** Attempts in a row without an answer that open the breaker (DELIVERY_BREAKER_THRESHOLD). */
  threshold: number;
  /** Pause after each attempt while open (DELIVERY_BREAKER_COOL_DOWN_MS). */
  coolDownMs: number;
}

/**
 * True when the attempt reached no HTTP answer from the endpoint. An address refused by the
 * connect-time check is not counted: nothing was waited for, so it holds no slot for long.
 */
export function isUnreachable(answer: AttemptAnswer): boolean {
  return answer.statusCode === null && !answer.refused;
}

export function isBreakerOpen(consecutiveUnreachable: number, settings: BreakerSettings): boolean {
  return consecutiveUnreachable >= settings.threshold;
}

/** When the next attempt may start after one that left `consecutiveUnreachable` in a row: null when the breaker is closed. */
export function breakerCoolDownEnd(consecutiveUnreachable: number, settings: BreakerSettings, now: number): Date | null {
  return isBreakerOpen(consecutiveUnreachable, settings) ? new Date(now + settings.coolDownMs) : null;
}
