import type { Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";
import { addressQuotaError, type RegistryQuotas } from "../../domain/registry-quotas.ts";
import { countAddresses } from "./count-account-usage.ts";

/** Refuses (422, rolling the write back) a write of the client's own addresses that leaves the account past its quota. */
export async function checkAddressQuota(trx: Transaction<DeliveryDatabase>, accountId: number, quotas: RegistryQuotas): Promise<void> {
  const watched = await countAddresses(trx, accountId);
  if (watched > quotas.addressesPerAccount) throw addressQuotaError(quotas.addressesPerAccount, watched);
}
