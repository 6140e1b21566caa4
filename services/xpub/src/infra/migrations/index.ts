import type { MigrationList } from "@chaingate/db";
import * as keysAndAddresses from "./0001-keys-and-addresses.ts";

/** The xpub schema's migrations, applied in name order at start-up. */
export const xpubMigrations: MigrationList = {
  "0001-keys-and-addresses": keysAndAddresses,
};
