/**
 * Reads an account's quota usage from the services that own the data (delivery: webhooks,
 * addresses, test events; xpub: key records), on their internal quota route with the internal
 * token: the gateway's database knows none of it.
 */
import { INTERNAL_TOKEN_HEADER } from "@chaingate/http";
import { quotaUsagePath, quotaUsageSchema, type QuotaUsage } from "@chaingate/contracts";

/** One service's answer, or why there is none. */
export type ServiceQuotaUsage = { service: string; usage: QuotaUsage } | { service: string; error: string };

const READ_TIMEOUT_MS = 10_000;

export async function readQuotaUsage(
  services: Record<string, string>,
  accountId: number,
  internalToken: string | undefined,
): Promise<ServiceQuotaUsage[]> {
  return Promise.all(
    Object.entries(services).map(async ([service, baseUrl]): Promise<ServiceQuotaUsage> => {
      try {
        const response = await fetch(new URL(quotaUsagePath(accountId), baseUrl), {
          headers: { accept: "application/json", ...(internalToken ? { [INTERNAL_TOKEN_HEADER]: internalToken } : {}) },
          signal: AbortSignal.timeout(READ_TIMEOUT_MS),
        });
        if (!response.ok) return { service, error: `${baseUrl} answered ${response.status}` };
        return { service, usage: quotaUsageSchema.parse(await response.json()) };
      } catch (error) {
        return { service, error: `${baseUrl} unreachable: ${error instanceof Error ? error.message : String(error)}` };
      }
    }),
  );
}
