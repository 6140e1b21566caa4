/**
 * The quota on an account's active API keys (QUOTA_API_KEYS_PER_ACCOUNT): each key has its own
 * rate-limit bucket and cache row, so keys are bounded like the other per-account records
 * (docs/operations/quotas.md). A create past it is a 422 in the spec's validation shape.
 */
import { ValidationError } from "@chaingate/errors";

export const API_KEY_QUOTA_SETTING = "QUOTA_API_KEYS_PER_ACCOUNT";
/** Enough for a key per service, worker and environment of one customer. */
export const DEFAULT_API_KEYS_PER_ACCOUNT = 100;

/** A create that would give the account more than `quota` active keys. */
export function apiKeyQuotaError(quota: number): ValidationError {
  return new ValidationError({
    keys: [
      `This account already has ${quota} active API keys, its quota (${API_KEY_QUOTA_SETTING} = ${quota}); deactivate a key or ask the operator to raise the quota.`,
    ],
  });
}
