/** The xpub service's tables (schema `xpub`), as kysely sees them. */
import type { ColumnType, Generated } from "kysely";
import type { XpubChain } from "../domain/xpub-chain.ts";

export interface ExtendedKeysTable {
  id: Generated<number>;
  /** The gateway's account id: every query filters on it, so accounts never see each other's keys. */
  account_id: number;
  /** BTC, ETH or a configured EVM chain's coin: every query filters on it, so a record never answers under another chain's path. */
  chain: ColumnType<XpubChain, XpubChain | undefined, never>;
  /**
   * Generated from `chain` (migration 0007): "bitcoin" for BTC, "evm" for every other chain. One
   * key holds one record per kind: every EVM chain derives the same addresses from it.
   */
  kind: ColumnType<"bitcoin" | "evm", never, never>;
  /** The key exactly as registered (a zpub for BTC, an xpub for ETH; needed to derive); never returned by the API. */
  zpub: string;
  /**
   * Hex of public key + chain code: what derivation depends on. Registrations are deduplicated on
   * it rather than on the zpub text, because two zpubs differing only in metadata (parent
   * fingerprint, depth bytes re-signed) derive the very same addresses.
   */
  key_material: string;
  fingerprint: string;
  xpub_preview: string;
  label: string | null;
  /** Next index to issue; indexes 0 .. next_index-1 are all in issued_addresses. */
  next_index: ColumnType<number, never, number>;
  created_at: ColumnType<Date, never, never>;
  /**
   * Set only by migration 0004 on a record whose key an older record of another account already
   * held: the holder's id. Such a record answers 409 instead of issuing. Null on every record the
   * service creates (a unique index allows one null per chain + key_material).
   */
  duplicate_of: ColumnType<number | null, never, never>;
}

export interface IssuedAddressesTable {
  key_id: number;
  /** Copied from the key (a composite foreign key keeps it equal) so address uniqueness is per account. */
  account_id: number;
  index: number;
  address: string;
  created_at: ColumnType<Date, never, never>;
  /** When its `address.issued` event reached JetStream; null until the outbox relay published it. */
  published_at: ColumnType<Date | null, never, Date | null>;
}

/** One operator move of a record to another account (`xpub-admin keys move`); kept, never deleted. */
export interface KeyMovesTable {
  id: Generated<number>;
  key_id: number;
  from_account_id: number;
  to_account_id: number;
  /** The record's counter at the move: indexes below it were issued while the old account held it. */
  next_index: number;
  moved_at: ColumnType<Date, never, never>;
  /** When its `key.moved` event reached JetStream; null until the outbox relay published it. */
  published_at: ColumnType<Date | null, never, Date | null>;
}

export interface XpubDatabase {
  extended_keys: ExtendedKeysTable;
  issued_addresses: IssuedAddressesTable;
  key_moves: KeyMovesTable;
}

export const XPUB_SCHEMA = "xpub";
