/** A delivery service on a free loopback port, in this process, for integration tests. */
import { loadConfig } from "@chaingate/config";
import { silentLogger } from "@chaingate/testing";
import { deliveryConfigSchema } from "../config.ts";
import { createDeliveryService, type DeliveryService } from "../create-delivery-service.ts";

/** Starts the service over `databaseUrl` (which must exist); `env` overrides its config. */
export async function startTestDelivery(databaseUrl: string, env: Record<string, string | undefined> = {}): Promise<DeliveryService> {
  const config = loadConfig("delivery", deliveryConfigSchema, { PORT: "0", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ...env });
  return createDeliveryService(config, silentLogger);
}
export { startLocalReceiver, type LocalReceiver, type ReceivedRequest } from "./local-receiver.ts";
export { observeWatchFeed, type FeedBucket, type FeedMeta, type ObservedMessage, type WatchFeedObserver } from "./watch-feed-observer.ts";
