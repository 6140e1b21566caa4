import type { MigrationList } from "@chaingate/db";
import * as followerState from "./0001-follower-state.ts";
import * as watchBuckets from "./0002-watch-buckets.ts";

/** The scanner schema's migrations, applied in name order at start-up. */
export const scannerMigrations: MigrationList = {
  "0001-follower-state": followerState,
  "0002-watch-buckets": watchBuckets,
};
