/** What every account-admin operation shares: the database and the gateway's change hook. */
import type { Kysely } from "kysely";
import type { GatewayDatabase } from "../database-schema.ts";

export interface AccountAdminOptions {
  /** Called with a key's prefix after a change to it committed (or a deactivation found it already inactive). */
  onKeyChanged?(prefix: string): void;
}

export interface AccountAdminContext {
  db: Kysely<GatewayDatabase>;
  options: AccountAdminOptions;
}
