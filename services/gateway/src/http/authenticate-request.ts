/**
 * The one authentication of every key-authenticated path, proxied (the gateway handler) or answered
 * by the gateway itself (the account routes): the credential, the key (cached; a database outage
 * is a 503, never a guess), the opt-in rate limit, and usage counted on the X-API-Key path only.
 */
import type { IncomingHttpHeaders } from "node:http";
import { hasErrorCode } from "@chaingate/errors";
import { readCredential } from "../domain/read-credential.ts";
import { accountRateLimitedMessage, rateLimitedMessage } from "../domain/key-rate-limit.ts";
import type { ApiKeyStore, AuthenticatedKey } from "../infra/api-key-store.ts";
import type { SharedRateLimit } from "../infra/shared-rate-limit.ts";
import type { UsageRecorder } from "../infra/usage-recorder.ts";

export const MISSING_KEY_MESSAGE = "No API key was sent. Send it in the X-API-Key header (or Authorization: Bearer).";
export const INVALID_KEY_MESSAGE = "The API key is invalid or inactive.";
export const KEYS_UNAVAILABLE_MESSAGE = "API keys cannot be checked right now (the database is unavailable); try again later.";

export interface RequestAuthenticatorOptions {
  keyStore: ApiKeyStore;
  usage: UsageRecorder;
  /**
   * RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND and RATE_LIMIT_REQUESTS_PER_ACCOUNT_PER_SECOND; an
   * undefined one is off (the spec's v1 has no limit). The key's bucket is asked first: a request
   * it refuses takes nothing from the account's, which its other keys share.
   */
  rateLimits?: { perKey?: RateLimit; perAccount?: RateLimit };
}

export interface RateLimit {
  limit: SharedRateLimit;
  requestsPerSecond: number;
}

/** The caller's key, or the answer that refuses the request (`{message}`, with Retry-After when it applies). */
export type Authentication =
  | { key: AuthenticatedKey }
  | { refusal: { status: 401 | 429 | 503; message: string; retryAfterSeconds?: number } };

/** Authenticates a request to a path of usage group `group`. */
export type AuthenticateRequest = (headers: IncomingHttpHeaders, group: string) => Promise<Authentication>;

export function createRequestAuthenticator(options: RequestAuthenticatorOptions): AuthenticateRequest {
  const { keyStore, usage } = options;
  const { perKey, perAccount } = options.rateLimits ?? {};
  return async (headers, group) => {
    const credential = readCredential(headers);
    if (credential.kind === "missing") return { refusal: { status: 401, message: MISSING_KEY_MESSAGE } };
    let key;
    try {
      key = await keyStore.authenticate(credential.key);
    } catch (error) {
      if (!hasErrorCode(error, "database_unavailable")) throw error;
      // Never guess about a key we cannot check: a revoked key must not pass during an outage.
      return { refusal: { status: 503, message: KEYS_UNAVAILABLE_MESSAGE, retryAfterSeconds: 1 } };
    }
    if (!key) return { refusal: { status: 401, message: INVALID_KEY_MESSAGE } };
    if (perKey) {
      const retryAfterSeconds = await perKey.limit.take(key.keyId);
      if (retryAfterSeconds > 0)
        return { refusal: { status: 429, message: rateLimitedMessage(perKey.requestsPerSecond, retryAfterSeconds), retryAfterSeconds } };
    }
    if (perAccount) {
      const retryAfterSeconds = await perAccount.limit.take(key.accountId);
      if (retryAfterSeconds > 0)
        return {
          refusal: { status: 429, message: accountRateLimitedMessage(perAccount.requestsPerSecond, retryAfterSeconds), retryAfterSeconds },
        };
    }
    // Statistics follow the dashboard's rule: only the X-API-Key path is counted.
    if (credential.via === "x-api-key") usage.record(key.keyId, group);
    return { key };
  };
}
