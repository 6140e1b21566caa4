import type { MigrationList } from "@chaingate/db";
import * as accountsAndKeys from "./0001-accounts-and-keys.ts";
import * as keyRateBuckets from "./0002-key-rate-buckets.ts";
import * as accountRateBuckets from "./0003-account-rate-buckets.ts";

export const gatewayMigrations: MigrationList = {
  "0001-accounts-and-keys": accountsAndKeys,
  "0002-key-rate-buckets": keyRateBuckets,
  "0003-account-rate-buckets": accountRateBuckets,
};
