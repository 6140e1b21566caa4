import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";
import { issuedByCurrentKey } from "./issued-by-current-key.ts";

/**
 * Takes addresses off the client's list: those of `addresses` (`only`) or all but them (`except`).
 * One a current key issued stays watched; the others are deleted. Returns how many were deleted.
 * Anti-joins, so a PUT over a large webhook costs its size, not its size times the list's.
 */
export async function unlistAddresses(
  trx: Transaction<DeliveryDatabase>,
  webhookId: number,
  scope: "only" | "except",
  addresses: readonly string[],
): Promise<number> {
  const named = sql<boolean>`exists (select 1 from unnest(${addresses}::text[]) as named(address) where named.address = a.address)`;
  const inScope = scope === "only" ? named : sql<boolean>`not ${named}`;
  const deleted = await sql`
    delete from webhook_addresses a using webhooks w
     where w.id = ${webhookId} and a.webhook_id = w.id and a.listed and ${inScope} and not ${issuedByCurrentKey}`.execute(trx);
  await sql`
    update webhook_addresses a set listed = false from webhooks w
     where w.id = ${webhookId} and a.webhook_id = w.id and a.listed and ${inScope}`.execute(trx);
  return Number(deleted.numAffectedRows ?? 0);
}
