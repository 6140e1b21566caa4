import { MAX_ADDRESS_INDEX } from "../../domain/derive-address.ts";
import type { IssuedAddressOf, ParsedAccountKey } from "../../domain/key-scheme.ts";
import type { AddressHistoryRows } from "../xpub-repository.ts";
import type { XpubRepositoryContext } from "./xpub-repository-context.ts";

/** `XpubRepository.addressHistory`: the key's issued count and the addresses of one index range. */
export async function addressHistory<Key extends ParsedAccountKey, Issued extends IssuedAddressOf>(
  context: XpubRepositoryContext<Key, Issued>,
  accountId: number,
  keyId: number,
  firstIndex: number,
  count: number,
): Promise<AddressHistoryRows | undefined> {
  const { chain } = context.scheme;
  // Indexes are issued without gaps, so a page is an index range (no OFFSET scan), and one
  // statement reads the total and the page from the same snapshot.
  const empty = firstIndex > MAX_ADDRESS_INDEX;
  const low = Math.min(firstIndex, MAX_ADDRESS_INDEX);
  const high = empty ? low - 1 : Math.min(firstIndex + count - 1, MAX_ADDRESS_INDEX);
  const rows = await context.db
    .selectFrom("extended_keys as k")
    .leftJoin("issued_addresses as a", (join) => join.onRef("a.key_id", "=", "k.id").on("a.index", ">=", low).on("a.index", "<=", high))
    .select(["k.next_index", "a.index", "a.address", "a.created_at"])
    .where("k.id", "=", keyId)
    .where("k.account_id", "=", accountId)
    .where("k.chain", "=", chain)
    .orderBy("a.index")
    .execute();
  const [first] = rows;
  if (!first) return undefined;
  const addresses = rows.flatMap((row) =>
    row.address === null || row.index === null || row.created_at === null
      ? []
      : [{ address: row.address, index: row.index, created_at: row.created_at }],
  );
  return { total: first.next_index, addresses };
}
