import type { MigrationList } from "@chaingate/db";
import * as accountsAndKeys from "./0001-accounts-and-keys.ts";

export const gatewayMigrations: MigrationList = {
  "0001-accounts-and-keys": accountsAndKeys,
};
