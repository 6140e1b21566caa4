/** Who holds a key: its records on either chain and their moves, for the operator's `xpub-admin keys find`. */
import type { Kysely, Selectable } from "kysely";
import type { XpubChain } from "../domain/xpub-chain.ts";
import type { KeyMovesTable, XpubDatabase } from "./database-schema.ts";

export interface KeyRecordHolding {
  id: number;
  account_id: number;
  chain: XpubChain;
  label: string | null;
  /** Also the issued count: indexes are issued without gaps. */
  next_index: number;
  /** Set on a record migration 0004 flagged: the holder's id. */
  duplicate_of: number | null;
  created_at: Date;
}

export type KeyMove = Omit<Selectable<KeyMovesTable>, "id" | "published_at">;

/**
 * The records of the key (`keyMaterial`: public key + chain code, hex, whatever text it came as) by
 * chain, each chain's holder first (one at most; the others are flagged duplicates), and every
 * move of them, oldest first. The rule is per chain: one node may be one account's Bitcoin key and
 * another's Ethereum key.
 */
export async function findKeyRecords(
  db: Kysely<XpubDatabase>,
  keyMaterial: string,
): Promise<{ records: KeyRecordHolding[]; moves: KeyMove[] }> {
  const records = await db
    .selectFrom("extended_keys")
    .select(["id", "account_id", "chain", "label", "next_index", "duplicate_of", "created_at"])
    .where("key_material", "=", keyMaterial)
    .orderBy("chain")
    .orderBy((eb) => eb("duplicate_of", "is not", null))
    .orderBy("id")
    .execute();
  const moves = records.length
    ? await db
        .selectFrom("key_moves")
        .select(["key_id", "from_account_id", "to_account_id", "next_index", "moved_at"])
        .where(
          "key_id",
          "in",
          records.map((record) => record.id),
        )
        .orderBy("id")
        .execute()
    : [];
  return { records, moves };
}
