import type { IssuedAddressOf, ParsedAccountKey } from "../../domain/key-scheme.ts";
import type { IssueResult } from "../xpub-repository.ts";
import type { XpubRepositoryContext } from "./xpub-repository-context.ts";

/** Issues up to `count` consecutive indexes in one transaction under the key's row lock. */
export function issueAddressBatch<Key extends ParsedAccountKey, Issued extends IssuedAddressOf>(
  context: XpubRepositoryContext<Key, Issued>,
  accountId: number,
  keyId: number,
  count: number,
): Promise<IssueResult<Issued>[]> {
  const { db, scheme, maxAddressesPerKey } = context;
  const { chain } = scheme;
  return db.transaction().execute(async (trx): Promise<IssueResult<Issued>[]> => {
    // The row lock serializes issuers of this key on every replica until we commit.
    const key = await trx
      .selectFrom("extended_keys")
      .select(["zpub", "next_index", "duplicate_of"])
      .where("id", "=", keyId)
      .where("account_id", "=", accountId)
      .where("chain", "=", chain)
      .forUpdate()
      .executeTakeFirst();
    if (!key) return Array<IssueResult<Issued>>(count).fill({ outcome: "not_found" });
    // A record flagged by migration 0004 would hand out the holder's addresses.
    if (key.duplicate_of !== null) return Array<IssueResult<Issued>>(count).fill({ outcome: "held_by_another_account" });
    const issuable = Math.max(0, Math.min(count, maxAddressesPerKey - key.next_index));
    const account = context.parsedKey(keyId, key.zpub);
    const addresses = Array.from({ length: issuable }, (_, i) => scheme.derive(account, key.next_index + i));
    if (issuable > 0) {
      // One statement for both writes: one round trip less while the lock is held.
      await trx
        .with("issued", (cte) =>
          cte
            .insertInto("issued_addresses")
            .values(addresses.map(({ index, address }) => ({ key_id: keyId, account_id: accountId, index, address }))),
        )
        .updateTable("extended_keys")
        .set((eb) => ({ next_index: eb("next_index", "+", issuable) }))
        .where("id", "=", keyId)
        .execute();
    }
    return Array.from({ length: count }, (_, i): IssueResult<Issued> => {
      const address = addresses[i];
      return address ? { outcome: "issued", address } : { outcome: "limit_reached", limit: maxAddressesPerKey };
    });
  });
}
