/** Records that migration 0004 found sharing their key with an older record of another account. */
import type { Kysely } from "kysely";
import type { XpubChain } from "../domain/xpub-chain.ts";
import type { XpubDatabase } from "./database-schema.ts";

export interface DuplicateKeyRecord {
  id: number;
  account_id: number;
  chain: XpubChain;
  /** The older record (another account's) that keeps the key. */
  duplicate_of: number;
}

/** Every flagged record, for the operator's start-up log line; none on a database created after 0004. */
export async function findDuplicateKeyRecords(db: Kysely<XpubDatabase>): Promise<DuplicateKeyRecord[]> {
  const rows = await db
    .selectFrom("extended_keys")
    .select(["id", "account_id", "chain", "duplicate_of"])
    .where("duplicate_of", "is not", null)
    .orderBy("id")
    .execute();
  return rows.map(({ duplicate_of, ...row }) => ({ ...row, duplicate_of: duplicate_of! }));
}
