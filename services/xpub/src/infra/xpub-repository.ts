/**
 * Registered keys and issued addresses in Postgres. Issuing takes the key's row lock, so the
 * index counter is safe across any number of service replicas; the table constraints make a
 * duplicate impossible even if this code were wrong.
 */
import type { Kysely, Selectable } from "kysely";
import { deriveAddress, MAX_ADDRESS_INDEX, type DerivedAddress } from "../domain/derive-address.ts";
import { parseAccountZpub, type AccountZpub } from "../domain/parse-account-zpub.ts";
import type { BitcoinNetwork } from "../domain/bitcoin-network.ts";
import type { ExtendedKeysTable, XpubDatabase } from "./database-schema.ts";
import { createKeyedBatcher } from "./keyed-batcher.ts";

/** A stored key record (the row without the full key). */
export type ExtendedKeyRow = Omit<Selectable<ExtendedKeysTable>, "zpub" | "key_material">;

export type IssueResult =
  | { outcome: "issued"; address: DerivedAddress }
  | { outcome: "not_found" }
  | { outcome: "limit_reached"; limit: number };

export interface AddressHistoryRows {
  total: number;
  addresses: Array<{ address: string; index: number; created_at: Date }>;
}

export interface XpubRepository {
  /** Stores the key for the account, or finds the account's existing record of the same key. */
  register(accountId: number, key: AccountZpub, label: string | null): Promise<{ record: ExtendedKeyRow; created: boolean }>;
  /** Issues the key's next index: lock, derive, store, increment, commit (batched with concurrent calls for the key). */
  issueAddress(accountId: number, keyId: number): Promise<IssueResult>;
  /** Addresses with index in [firstIndex, firstIndex + count), or undefined if the account has no such key. */
  addressHistory(accountId: number, keyId: number, firstIndex: number, count: number): Promise<AddressHistoryRows | undefined>;
}

export interface XpubRepositoryOptions {
  db: Kysely<XpubDatabase>;
  network: BitcoinNetwork;
  /** Addresses one key may issue; the call after the last answers limit_reached. */
  maxAddressesPerKey: number;
}

/** Parsed keys kept in memory: parsing re-validates the point, which is wasted work under the row lock. */
const PARSED_KEY_CACHE_SIZE = 1_000;

/**
 * Most issue calls for one key that share a transaction. Derivation (~0.5 ms each) runs under the
 * lock, so a cap keeps one batch's lock time (and the other replicas' wait) near 50 ms.
 */
const MAX_ISSUE_BATCH = 100;

const RECORD_COLUMNS = ["id", "account_id", "fingerprint", "xpub_preview", "label", "next_index", "created_at"] as const;

/** The repository over the `xpub` schema. */
export function createXpubRepository({ db, network, maxAddressesPerKey }: XpubRepositoryOptions): XpubRepository {
  const parsedKeys = new Map<number, AccountZpub>();
  const parsedKey = (keyId: number, zpub: string): AccountZpub => {
    let key = parsedKeys.get(keyId);
    if (key?.zpub !== zpub) {
      key = parseAccountZpub(zpub, network);
      if (parsedKeys.size >= PARSED_KEY_CACHE_SIZE) parsedKeys.delete(parsedKeys.keys().next().value!);
      parsedKeys.set(keyId, key);
    }
    return key;
  };

  const issuing = createKeyedBatcher<IssueResult>(MAX_ISSUE_BATCH);

  /** Issues up to `count` consecutive indexes in one transaction under the key's row lock. */
  const issueBatch = (accountId: number, keyId: number, count: number) =>
    db.transaction().execute(async (trx): Promise<IssueResult[]> => {
      // The row lock serializes issuers of this key on every replica until we commit.
      const key = await trx
        .selectFrom("extended_keys")
        .select(["zpub", "next_index"])
        .where("id", "=", keyId)
        .where("account_id", "=", accountId)
        .forUpdate()
        .executeTakeFirst();
      if (!key) return Array<IssueResult>(count).fill({ outcome: "not_found" });
      const issuable = Math.max(0, Math.min(count, maxAddressesPerKey - key.next_index));
      const account = parsedKey(keyId, key.zpub);
      const addresses = Array.from({ length: issuable }, (_, i) => deriveAddress(account, key.next_index + i));
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
      return Array.from({ length: count }, (_, i): IssueResult => {
        const address = addresses[i];
        return address ? { outcome: "issued", address } : { outcome: "limit_reached", limit: maxAddressesPerKey };
      });
    });

  return {
    async register(accountId, key, label) {
      const keyMaterial = keyMaterialOf(key);
      const inserted = await db
        .insertInto("extended_keys")
        .values({
          account_id: accountId,
          zpub: key.zpub,
          key_material: keyMaterial,
          fingerprint: key.fingerprint,
          xpub_preview: key.xpubPreview,
          label,
        })
        // A concurrent registration of the same key waits for ours and then does nothing.
        .onConflict((conflict) => conflict.columns(["account_id", "key_material"]).doNothing())
        .returning(RECORD_COLUMNS)
        .executeTakeFirst();
      if (inserted) return { record: inserted, created: true };
      const existing = await db
        .selectFrom("extended_keys")
        .select(RECORD_COLUMNS)
        .where("account_id", "=", accountId)
        .where("key_material", "=", keyMaterial)
        .executeTakeFirstOrThrow();
      return { record: existing, created: false };
    },

    issueAddress(accountId, keyId) {
      // Concurrent calls for one key in this process share a transaction: one lock, one commit
      // (one WAL flush) for the batch instead of one each, which is what bounds a hot key.
      return issuing.submit(`${accountId}:${keyId}`, (count) => issueBatch(accountId, keyId, count));
    },

    async addressHistory(accountId, keyId, firstIndex, count) {
      // Indexes are issued without gaps, so a page is an index range (no OFFSET scan), and one
      // statement reads the total and the page from the same snapshot.
      const empty = firstIndex > MAX_ADDRESS_INDEX;
      const low = Math.min(firstIndex, MAX_ADDRESS_INDEX);
      const high = empty ? low - 1 : Math.min(firstIndex + count - 1, MAX_ADDRESS_INDEX);
      const rows = await db
        .selectFrom("extended_keys as k")
        .leftJoin("issued_addresses as a", (join) => join.onRef("a.key_id", "=", "k.id").on("a.index", ">=", low).on("a.index", "<=", high))
        .select(["k.next_index", "a.index", "a.address", "a.created_at"])
        .where("k.id", "=", keyId)
        .where("k.account_id", "=", accountId)
        .orderBy("a.index")
        .execute();
      const [first] = rows;
      if (!first) return undefined;
      const addresses = rows.flatMap((row) => (row.address === null || row.index === null || row.created_at === null ? [] : [{ address: row.address, index: row.index, created_at: row.created_at }]));
      return { total: first.next_index, addresses };
    },
  };
}

function keyMaterialOf(key: AccountZpub): string {
  return Buffer.concat([key.publicKey, key.chainCode]).toString("hex");
}
