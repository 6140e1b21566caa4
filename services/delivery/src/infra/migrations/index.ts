import type { MigrationList } from "@chaingate/db";
import * as registry from "./0001-registry.ts";
import * as deliveryJobs from "./0002-delivery-jobs.ts";
import * as webhookSettingsAndWatchFeed from "./0003-webhook-settings-and-watch-feed.ts";
import * as jobTraceContext from "./0004-job-trace-context.ts";
import * as watchFeedTimesAndKeyAddresses from "./0005-watch-feed-times-and-key-addresses.ts";
import * as testEventTimes from "./0006-test-event-times.ts";
import * as fairDelivery from "./0007-fair-delivery.ts";
import * as keyHolders from "./0008-key-holders.ts";

/** The delivery schema's migrations, applied in name order at start-up. */
export const deliveryMigrations: MigrationList = {
  "0001-registry": registry,
  "0002-delivery-jobs": deliveryJobs,
  "0003-webhook-settings-and-watch-feed": webhookSettingsAndWatchFeed,
  "0004-job-trace-context": jobTraceContext,
  "0005-watch-feed-times-and-key-addresses": watchFeedTimesAndKeyAddresses,
  "0006-test-event-times": testEventTimes,
  "0007-fair-delivery": fairDelivery,
  "0008-key-holders": keyHolders,
};
