import type { Kysely } from "kysely";
import type { IssuedAddressOf, KeyScheme, ParsedAccountKey } from "../../domain/key-scheme.ts";
import type { XpubDatabase } from "../database-schema.ts";

/** What one chain's repository operations share: the database, the scheme, the limits and the parsed-key cache. */
export interface XpubRepositoryContext<Key extends ParsedAccountKey, Issued extends IssuedAddressOf> {
  db: Kysely<XpubDatabase>;
  scheme: KeyScheme<Key, Issued>;
  /** Addresses one key may issue. */
  maxAddressesPerKey: number;
  /** Records one account may hold over both chains. */
  maxRecordsPerAccount: number;
  /** The stored key text of record `keyId`, parsed (cached). */
  parsedKey(keyId: number, source: string): Key;
}

export const RECORD_COLUMNS = ["id", "account_id", "chain", "fingerprint", "xpub_preview", "label", "next_index", "created_at"] as const;
