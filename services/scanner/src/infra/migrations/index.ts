import type { MigrationList } from "@chaingate/db";
import * as followerState from "./0001-follower-state.ts";
import * as watchBuckets from "./0002-watch-buckets.ts";
import * as chainIdentity from "./0003-chain-identity.ts";
import * as generationsAndPublishing from "./0004-generations-and-publishing.ts";
import * as watermarkAndRescans from "./0005-watermark-and-rescans.ts";
import * as leaseRenewals from "./0006-lease-renewals.ts";
import * as mempoolTransfers from "./0007-mempool-transfers.ts";
import * as allTokens from "./0008-all-tokens.ts";

/** The scanner schema's migrations, applied in name order at start-up. */
export const scannerMigrations: MigrationList = {
  "0001-follower-state": followerState,
  "0002-watch-buckets": watchBuckets,
  "0003-chain-identity": chainIdentity,
  "0004-generations-and-publishing": generationsAndPublishing,
  "0005-watermark-and-rescans": watermarkAndRescans,
  "0006-lease-renewals": leaseRenewals,
  "0007-mempool-transfers": mempoolTransfers,
  "0008-all-tokens": allTokens,
};
