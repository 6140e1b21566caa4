/**
 * The internal quota route each data-owning service (delivery, xpub) answers for the operator CLI
 * (`admin quotas --account N`): what the account uses of each quota the service enforces. Not under
 * /api/v1, so the gateway never routes it; the internal token guards it like every internal call.
 */
import { z } from "../zod.ts";

/** express form; `{account}` is the gateway's account id. */
export const QUOTA_USAGE_ROUTE = "/internal/quotas/:account(\\d{1,15})";

export function quotaUsagePath(accountId: number): string {
  return `/internal/quotas/${accountId}`;
}

export const quotaUsageSchema = z.object({
  account_id: z.number().int(),
  quotas: z.array(
    z.object({
      /** The setting that holds the quota (its name in docs/operations/configuration.md). */
      setting: z.string(),
      used: z.number().int(),
      limit: z.number().int(),
    }),
  ),
});
export type QuotaUsage = z.infer<typeof quotaUsageSchema>;
