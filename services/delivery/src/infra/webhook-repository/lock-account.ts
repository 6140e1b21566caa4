import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/**
 * Advisory lock namespace of "this account's quota is being checked and used": a create or an
 * address write holds it to its commit, so two parallel writes cannot both take the last free slot.
 * Taken before any key or webhook row lock (the `address.issued` consumer never takes it).
 */
const ACCOUNT_LOCK_NAMESPACE = 0x71756f74;

/** Takes the account's quota lock for the transaction (see ACCOUNT_LOCK_NAMESPACE). */
export async function lockAccount(trx: Transaction<DeliveryDatabase>, accountId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_NAMESPACE}, (${accountId}::bigint % 2147483647)::int)`.execute(trx);
}
