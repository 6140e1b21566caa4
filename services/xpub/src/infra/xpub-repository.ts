/**
 * Registered keys and issued addresses in Postgres. Issuing takes the key's row lock, so the
 * index counter is safe across any number of service replicas; the table constraints make a
 * duplicate impossible even if this code were wrong.
 */
import type { Kysely, Selectable } from "kysely";
import type { IssuedAddressOf, KeyScheme, ParsedAccountKey } from "../domain/key-scheme.ts";
import type { ExtendedKeysTable, XpubDatabase } from "./database-schema.ts";
import { createKeyedBatcher } from "./keyed-batcher.ts";
import { addressHistory } from "./xpub-repository/address-history.ts";
import { issueAddressBatch } from "./xpub-repository/issue-address-batch.ts";
import { createParsedKeyCache } from "./xpub-repository/parsed-key-cache.ts";
import { registerKey } from "./xpub-repository/register-key.ts";
import { RECORD_COLUMNS, type XpubRepositoryContext } from "./xpub-repository/xpub-repository-context.ts";

export { keyMaterialOf } from "./xpub-repository/key-material-of.ts";

/** A stored key record (the row without the full key). */
export type ExtendedKeyRow = Omit<Selectable<ExtendedKeysTable>, "zpub" | "key_material" | "duplicate_of" | "kind">;

/**
 * `held_by_another_account`: the key (per kind of chain) belongs to the account that registered it first.
 * `registered_for_another_chain`: this account holds the key on another EVM chain, whose addresses
 * are this chain's too (two records would hand one address out twice).
 * `quota_reached`: the account holds its quota of records (all chains together).
 */
export type RegisterResult =
  | { outcome: "registered"; record: ExtendedKeyRow; created: boolean }
  | { outcome: "held_by_another_account" }
  | { outcome: "registered_for_another_chain"; chain: string; recordId: number }
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

/**
 * Most issue calls for one key that share a transaction. Derivation (~0.5 ms each) runs under the
 * lock, so a cap keeps one batch's lock time (and the other replicas' wait) near 50 ms.
 */
const MAX_ISSUE_BATCH = 100;

/** The repository of one chain's records over the `xpub` schema. */
export function createXpubRepository<Key extends ParsedAccountKey, Issued extends IssuedAddressOf>({
  db,
  scheme,
  maxAddressesPerKey,
  maxRecordsPerAccount,
  onIssued,
}: XpubRepositoryOptions<Key, Issued>): XpubRepository<Key, Issued> {
  const { chain } = scheme;
  const context: XpubRepositoryContext<Key, Issued> = {
    db,
    scheme,
    maxAddressesPerKey,
    maxRecordsPerAccount,
    parsedKey: createParsedKeyCache(scheme),
  };
  const issuing = createKeyedBatcher<IssueResult<Issued>>(MAX_ISSUE_BATCH);

  return {
    register: (accountId, key, label) => registerKey(context, accountId, key, label),

    issueAddress(accountId, keyId) {
      // Concurrent calls for one key in this process share a transaction: one lock, one commit
      // (one WAL flush) for the batch instead of one each, which is what bounds a hot key.
      return issuing.submit(`${accountId}:${keyId}`, async (count) => {
        const results = await issueAddressBatch(context, accountId, keyId, count);
        onIssued?.();
        return results;
      });
    },

    addressHistory: (accountId, keyId, firstIndex, count) => addressHistory(context, accountId, keyId, firstIndex, count),

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
