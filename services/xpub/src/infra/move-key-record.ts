/**
 * The operator's remedy for a key registered by the wrong account (`xpub-admin keys move`): the
 * record itself changes account, with its id, counter and issued addresses, so the rightful
 * account issues on from the next index and no address is ever handed out twice.
 */
import { sql, type Kysely } from "kysely";
import type { XpubChain } from "../domain/xpub-chain.ts";
import type { XpubDatabase } from "./database-schema.ts";

export interface MovedKeyRecord {
  id: number;
  chain: XpubChain;
  fromAccountId: number;
  toAccountId: number;
  /** The counter, unchanged: the new account's next address has this index. */
  nextIndex: number;
  /** Issued addresses that went along (all of them: indexes 0 .. nextIndex-1). */
  addresses: number;
}

/**
 * `already_there`: the record belongs to the target account; nothing changed.
 * `flagged_duplicate`: a record migration 0004 flagged holds no key; its holder is what would move.
 * `target_holds_duplicate`: the target account has a flagged record of the same key, and an
 *   account holds one record per key (merging the two is not supported).
 */
export type MoveKeyRecordResult =
  | { outcome: "moved"; record: MovedKeyRecord }
  | { outcome: "not_found" }
  | { outcome: "already_there" }
  | { outcome: "flagged_duplicate"; holderId: number }
  | { outcome: "target_holds_duplicate"; duplicateId: number };

/**
 * Moves record `id` to `toAccountId` in one transaction, and records the move in `key_moves`: the
 * outbox the running service relays as `key.moved` (key-moved-relay.ts), so webhooks follow.
 */
export function moveKeyRecord(
  db: Kysely<XpubDatabase>,
  { id, toAccountId }: { id: number; toAccountId: number },
): Promise<MoveKeyRecordResult> {
  return db.transaction().execute(async (trx): Promise<MoveKeyRecordResult> => {
    // The issuers' row lock: an issue batch in flight commits first, and its addresses move too;
    // one that starts later looks for the record under its old account and finds nothing (404).
    const record = await trx
      .selectFrom("extended_keys")
      .select(["account_id", "chain", "key_material", "next_index", "duplicate_of"])
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!record) return { outcome: "not_found" };
    if (record.duplicate_of !== null) return { outcome: "flagged_duplicate", holderId: record.duplicate_of };
    if (record.account_id === toAccountId) return { outcome: "already_there" };
    const duplicate = await trx
      .selectFrom("extended_keys")
      .select("id")
      .where("account_id", "=", toAccountId)
      .where("chain", "=", record.chain)
      .where("key_material", "=", record.key_material)
      .executeTakeFirst();
    if (duplicate) return { outcome: "target_holds_duplicate", duplicateId: duplicate.id };

    // One statement: issued_addresses' foreign key (key_id, account_id) is checked at its end, when
    // the record and its addresses name the new account together. Unpublished addresses are
    // relayed as the new account's (the relay reads the row's account).
    const { rows } = await sql<{ addresses: number }>`
      with moved as (update extended_keys set account_id = ${toAccountId} where id = ${id} returning id),
        addresses as (
          update issued_addresses set account_id = ${toAccountId} from moved where issued_addresses.key_id = moved.id returning 1
        )
      select count(*)::int as addresses from addresses`.execute(trx);
    await trx
      .insertInto("key_moves")
      .values({ key_id: id, from_account_id: record.account_id, to_account_id: toAccountId, next_index: record.next_index })
      .execute();
    return {
      outcome: "moved",
      record: {
        id,
        chain: record.chain,
        fromAccountId: record.account_id,
        toAccountId,
        nextIndex: record.next_index,
        addresses: rows[0]!.addresses,
      },
    };
  });
}
