import type { MigrationList } from "@chaingate/db";
import * as registry from "./0001-registry.ts";
import * as deliveryJobs from "./0002-delivery-jobs.ts";
import * as webhookSettingsAndWatchFeed from "./0003-webhook-settings-and-watch-feed.ts";
import * as jobTraceContext from "./0004-job-trace-context.ts";
import * as watchFeedTimesAndKeyAddresses from "./0005-watch-feed-times-and-key-addresses.ts";
import * as testEventTimes from "./0006-test-event-times.ts";
import * as fairDelivery from "./0007-fair-delivery.ts";
import * as keyHolders from "./0008-key-holders.ts";
import * as eventSequence from "./0009-event-sequence.ts";
import * as watchInactiveWebhooks from "./0010-watch-inactive-webhooks.ts";
import * as operationalEvents from "./0011-operational-events.ts";
import * as heartbeats from "./0012-heartbeats.ts";
import * as secretOverlap from "./0013-secret-overlap.ts";
import * as issuedAddressIndex from "./0014-issued-address-index.ts";
import * as clockHeartbeats from "./0015-clock-heartbeats.ts";
import * as pendingEvents from "./0016-pending-events.ts";
import * as configuredChains from "./0017-configured-chains.ts";
import * as allTokens from "./0018-all-tokens.ts";

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
  "0009-event-sequence": eventSequence,
  "0010-watch-inactive-webhooks": watchInactiveWebhooks,
  "0011-operational-events": operationalEvents,
  "0012-heartbeats": heartbeats,
  "0013-secret-overlap": secretOverlap,
  "0014-issued-address-index": issuedAddressIndex,
  "0015-clock-heartbeats": clockHeartbeats,
  "0016-pending-events": pendingEvents,
  "0017-configured-chains": configuredChains,
  "0018-all-tokens": allTokens,
};
