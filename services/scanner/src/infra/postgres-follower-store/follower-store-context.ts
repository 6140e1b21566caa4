import type { Coin } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import type { ScannerDatabase } from "../database-schema.ts";

/**
 * What the Postgres follower store's operations share: the database and what the lease holder
 * remembers of its coin's rows (see createPostgresFollowerStore).
 */
export interface FollowerStoreContext {
  db: Kysely<ScannerDatabase>;
  /** Per coin: the lowest due height of the stored pending matches (Infinity: none); absent: unknown. */
  nextDue: Map<Coin, number>;
  /** Per coin: false when no revert count is stored; absent: unknown. */
  anyReverts: Map<Coin, boolean>;
}
