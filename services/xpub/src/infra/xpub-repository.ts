/**
 * Registered keys and issued addresses in Postgres. Issuing takes the key's row lock, so the
 * index counter is safe across any number of service replicas; the table constraints make a
 * duplicate impossible even if this code were wrong.
 */
import { sql, type Kysely, type Selectable } from "kysely";
import { MAX_ADDRESS_INDEX } from "../domain/derive-address.ts";
import type { IssuedAddressOf, KeyScheme, ParsedAccountKey } from "../domain/key-scheme.ts";
import type { ExtendedKeysTable, XpubDatabase } from "./database-schema.ts";
import { createKeyedBatcher } from "./keyed-batcher.ts";

/** A stored key record (the row without the full key). */
export type ExtendedKeyRow = Omit<Selectable<ExtendedKeysTable>, "zpub" | "key_material" | "duplicate_of">;

/**
 * `held_by_another_account`: the key (per chain) belongs to the account that registered it first.
 * `quota_reached`: the account holds its quota of records (both chains together).
 */
export type RegisterResult =
  | { outcome: "registered"; record: ExtendedKeyRow; created: boolean }
  | { outcome: "held_by_another_account" }
  | { outcome: "quota_reached"; limit: number };

export type IssueResult<Issued extends IssuedAddressOf = IssuedAddressOf> =
  | { outcome: "issued"; address: Issued }
  | { outcome: "not_found" }
  | { outcome: "limit_reached"; limit: number }
  | { outcome: "held_by_another_account" };

export interface AddressHistoryRows {
  total: number;
  addresses: Array<{ address: string; index: number; created_at: Date }>;
}

/** One chain's records: every query is scoped to the scheme's chain. */
export interface XpubRepository<Key extends ParsedAccountKey = ParsedAccountKey, Issued extends IssuedAddressOf = IssuedAddressOf> {
  /**
   * Stores the key for the account, or finds the account's existing record of the same key; a key
   * another account holds (same public key and chain code, whatever the encoding) is refused.
   */
  register(accountId: number, key: Key, label: string | null): Promise<RegisterResult>;
  /** Issues the key's next index: lock, derive, store, increment, commit (batched with concurrent calls for the key). */
  issueAddress(accountId: number, keyId: number): Promise<IssueResult<Issued>>;
  /** Addresses with index in [firstIndex, firstIndex + count), or undefined if the account has no such key. */
  addressHistory(accountId: number, keyId: number, firstIndex: number, count: number): Promise<AddressHistoryRows | undefined>;
  /** The account's records of this chain, by id, `count` from the `offset`-th, with how many there are. */
  listRecords(accountId: number, offset: number, count: number): Promise<{ total: number; records: ExtendedKeyRow[] }>;
}

export interface XpubRepositoryOptions<Key extends ParsedAccountKey, Issued extends IssuedAddressOf> {
  db: Kysely<XpubDatabase>;
  scheme: KeyScheme<Key, Issued>;
  /** Addresses one key may issue; the call after the last answers limit_reached. */
  maxAddressesPerKey: number;
  /** Records one account may hold over both chains (QUOTA_XPUB_RECORDS_PER_ACCOUNT); a new key past it answers quota_reached. */
  maxRecordsPerAccount: number;
  /** Told after a batch of addresses is committed (the outbox relay publishes them). */
  onIssued?(): void;
}

/** Parsed keys kept in memory: parsing re-validates the point, which is wasted work under the row lock. */
const PARSED_KEY_CACHE_SIZE = 1_000;

/**
 * Most issue calls for one key that share a transaction. Derivation (~0.5 ms each) runs under the
 * lock, so a cap keeps one batch's lock time (and the other replicas' wait) near 50 ms.
 */
const MAX_ISSUE_BATCH = 100;

/**
 * Advisory lock namespace of "this account's records are being counted and added": held to the
 * commit, so two parallel registrations cannot both take the last free record.
 */
const ACCOUNT_LOCK_NAMESPACE = 0x78707562;

const RECORD_COLUMNS = ["id", "account_id", "chain", "fingerprint", "xpub_preview", "label", "next_index", "created_at"] as const;

/** The repository of one chain's records over the `xpub` schema. */
export function createXpubRepository<Key extends ParsedAccountKey, Issued extends IssuedAddressOf>({
  db,
  scheme,
  maxAddressesPerKey,
  maxRecordsPerAccount,
  onIssued,
}: XpubRepositoryOptions<Key, Issued>): XpubRepository<Key, Issued> {
  const { chain } = scheme;
  const parsedKeys = new Map<number, { source: string; key: Key }>();
  const parsedKey = (keyId: number, source: string): Key => {
    let entry = parsedKeys.get(keyId);
    if (entry?.source !== source) {
      entry = { source, key: scheme.parse(source) };
      if (parsedKeys.size >= PARSED_KEY_CACHE_SIZE) parsedKeys.delete(parsedKeys.keys().next().value!);
      parsedKeys.set(keyId, entry);
    }
    return entry.key;
  };

  const issuing = createKeyedBatcher<IssueResult<Issued>>(MAX_ISSUE_BATCH);

  /** Issues up to `count` consecutive indexes in one transaction under the key's row lock. */
  const issueBatch = (accountId: number, keyId: number, count: number) =>
    db.transaction().execute(async (trx): Promise<IssueResult<Issued>[]> => {
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
      const account = parsedKey(keyId, key.zpub);
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

  return {
    register: (accountId, key, label) =>
      db.transaction().execute(async (trx): Promise<RegisterResult> => {
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
          // The other unique index may refuse the row: another account's record of the key (per
          // chain). A concurrent registration of the same key by another account waits for the first
          // one's commit and then does nothing, so exactly one account gets the key.
          .onConflict((conflict) => conflict.doNothing())
          .returning(RECORD_COLUMNS)
          .executeTakeFirst();
        return inserted ? { outcome: "registered", record: inserted, created: true } : { outcome: "held_by_another_account" };
      }),

    issueAddress(accountId, keyId) {
      // Concurrent calls for one key in this process share a transaction: one lock, one commit
      // (one WAL flush) for the batch instead of one each, which is what bounds a hot key.
      return issuing.submit(`${accountId}:${keyId}`, async (count) => {
        const results = await issueBatch(accountId, keyId, count);
        onIssued?.();
        return results;
      });
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
    },

    async listRecords(accountId, offset, count) {
      const mine = db.selectFrom("extended_keys").where("account_id", "=", accountId).where("chain", "=", chain);
      const [records, { total }] = await Promise.all([
        mine.select(RECORD_COLUMNS).orderBy("id").offset(offset).limit(count).execute(),
        mine.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow(),
      ]);
      return { total: Number(total), records };
    },
  };
}

/** What a key is compared by (per chain): public key + chain code, hex; the text's metadata does not count. */
export function keyMaterialOf(key: ParsedAccountKey): string {
  return Buffer.concat([key.publicKey, key.chainCode]).toString("hex");
}
