/**
 * The registry's per-account quotas (settings of config.ts) and the refusals they give: 422 in the
 * spec's validation shape naming the quota and its value, or 429 with `Retry-After` for the test
 * event rate. Addresses watched through a key in `xpub_ids` count toward the address quota but
 * are never refused (the xpub service already issued them; refusing would leave an issued address
 * unwatched): they can take an account past its quota, and the client's own additions are then
 * refused until it is back under.
 */
import { ChaingateError, ValidationError } from "@chaingate/errors";

export interface RegistryQuotas {
  /** Live webhooks per account (QUOTA_WEBHOOKS_PER_ACCOUNT). */
  webhooksPerAccount: number;
  /** Watched addresses over the account's live webhooks, listed and key-issued (QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT). */
  addressesPerAccount: number;
  /** Test events one webhook may queue in any 60 seconds (QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE). */
  testEventsPerWebhookPerMinute: number;
}

/** The window of the test event rate. */
export const TEST_EVENT_WINDOW_MS = 60_000;

/** A create past the account's webhook quota. */
export function webhookQuotaError(quota: number): ValidationError {
  return new ValidationError({
    webhooks: [
      `This account already has ${quota} webhooks, its quota (QUOTA_WEBHOOKS_PER_ACCOUNT = ${quota}); delete a webhook or ask the operator to raise the quota.`,
    ],
  });
}

/** A write of the client's own addresses that leaves the account watching more than its quota. */
export function addressQuotaError(quota: number, watched: number): ValidationError {
  return new ValidationError({
    addresses: [
      `This account would watch ${watched} addresses over its webhooks, more than its quota (QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT = ${quota}); remove addresses or ask the operator to raise the quota.`,
    ],
  });
}

/** A test event past the webhook's per-minute quota: 429 `{message}` with `Retry-After`. */
export class TestEventRateError extends ChaingateError {
  override name = "TestEventRateError" as const;
  readonly retryAfterSeconds: number;
  constructor(quota: number, retryAfterSeconds: number) {
    super(
      "test_event_rate_exceeded",
      `This webhook has queued ${quota} test events in the last minute, its quota (QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE = ${quota}); retry after ${retryAfterSeconds} ${retryAfterSeconds === 1 ? "second" : "seconds"}.`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Whether one more test event fits in the window ending `now`, given the times of the earlier ones:
 * the times to keep (those inside the window, plus now) or the seconds until the oldest leaves it.
 */
export function admitTestEvent(
  sentAt: readonly Date[],
  now: Date,
  quota: number,
): { admitted: true; keep: Date[] } | { admitted: false; retryAfterSeconds: number } {
  const windowStart = now.getTime() - TEST_EVENT_WINDOW_MS;
  const recent = sentAt.filter((time) => time.getTime() > windowStart).sort((a, b) => a.getTime() - b.getTime());
  if (recent.length < quota) return { admitted: true, keep: [...recent, now] };
  // The (recent.length - quota + 1)-th oldest must leave the window before one more fits.
  const blocking = recent[recent.length - quota]!;
  // Never past the window: a time recorded by a transaction that began after this one can lie ahead of `now`.
  const waitMs = Math.min(TEST_EVENT_WINDOW_MS, blocking.getTime() - windowStart);
  return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** The defaults of config.ts (tests and tools that build a repository without a config use them too). */
export const DEFAULT_REGISTRY_QUOTAS: RegistryQuotas = {
  webhooksPerAccount: 1_000,
  addressesPerAccount: 1_000_000,
  testEventsPerWebhookPerMinute: 10,
};
