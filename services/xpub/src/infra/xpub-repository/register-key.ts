import { sql } from "kysely";
import type { IssuedAddressOf, ParsedAccountKey } from "../../domain/key-scheme.ts";
import type { RegisterResult } from "../xpub-repository.ts";
import { keyMaterialOf } from "./key-material-of.ts";
import { RECORD_COLUMNS, type XpubRepositoryContext } from "./xpub-repository-context.ts";

/**
 * Advisory lock namespace of "this account's records are being counted and added": held to the
 * commit, so two parallel registrations cannot both take the last free record.
 */
const ACCOUNT_LOCK_NAMESPACE = 0x78707562;

/** `XpubRepository.register`: the account's existing record of the key, a new one within the quota, or a refusal. */
export function registerKey<Key extends ParsedAccountKey, Issued extends IssuedAddressOf>(
  context: XpubRepositoryContext<Key, Issued>,
  accountId: number,
  key: Key,
  label: string | null,
): Promise<RegisterResult> {
  const { db, maxRecordsPerAccount } = context;
  const { chain } = context.scheme;
  return db.transaction().execute(async (trx): Promise<RegisterResult> => {
    const keyMaterial = keyMaterialOf(key);
    await sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_NAMESPACE}, (${accountId}::bigint % 2147483647)::int)`.execute(trx);
    // The account's own record of the key answers as before, whatever the quota.
    const existing = await trx
      .selectFrom("extended_keys")
      .select([...RECORD_COLUMNS, "duplicate_of"])
      .where("account_id", "=", accountId)
      .where("chain", "=", chain)
      .where("key_material", "=", keyMaterial)
      .executeTakeFirst();
    if (existing) {
      if (existing.duplicate_of !== null) return { outcome: "held_by_another_account" };
      const { duplicate_of: _holder, ...record } = existing;
      return { outcome: "registered", record, created: false };
    }
    // The key's record on another chain of the same kind (another EVM chain): its addresses are this chain's.
    const sameAddresses = await trx
      .selectFrom("extended_keys")
      .select(["id", "account_id", "chain"])
      .where("kind", "=", context.scheme.kind)
      .where("key_material", "=", keyMaterial)
      .where("duplicate_of", "is", null)
      .executeTakeFirst();
    if (sameAddresses) {
      return sameAddresses.account_id === accountId
        ? { outcome: "registered_for_another_chain", chain: sameAddresses.chain, recordId: sameAddresses.id }
        : { outcome: "held_by_another_account" };
    }
    const { n } = await trx
      .selectFrom("extended_keys")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= maxRecordsPerAccount) return { outcome: "quota_reached", limit: maxRecordsPerAccount };
    const inserted = await trx
      .insertInto("extended_keys")
      .values({
        account_id: accountId,
        chain,
        zpub: key.source,
        key_material: keyMaterial,
        fingerprint: key.fingerprint,
        xpub_preview: key.xpubPreview,
        label,
      })
      // The other unique indexes may refuse the row: another account's record of the key (per
      // kind of chain). A concurrent registration of the same key by another account waits for the first
      // one's commit and then does nothing, so exactly one account gets the key.
      .onConflict((conflict) => conflict.doNothing())
      .returning(RECORD_COLUMNS)
      .executeTakeFirst();
    return inserted ? { outcome: "registered", record: inserted, created: true } : { outcome: "held_by_another_account" };
  });
}
