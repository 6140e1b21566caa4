/** Test helpers of the delivery service (its own tests, the bench, the drills). */
export { startTestDelivery } from "./start-test-delivery.ts";
export { startDeliveryProcess, type DeliveryProcess } from "./start-delivery-process.ts";
export { callAsAccount } from "./call-as-account.ts";
export { callAtEdge } from "./call-at-edge.ts";
export { startBlackholeServer, type BlackholeServer } from "./blackhole-server.ts";
export { publishTransfers } from "./publish-transfers.ts";
export { startLocalReceiver, type LocalReceiver, type ReceivedRequest } from "./local-receiver.ts";
export {
  SAMPLE_ADDRESSES,
  createDeliveryHarness,
  startDeliveryHarness,
  transferFor,
  type DeliveryHarness,
  type DeliveryHarnessParts,
  type TransferMatchedEvent,
} from "./delivery-harness.ts";
export { observeWatchFeed, type FeedBucket, type FeedMeta, type ObservedMessage, type WatchFeedObserver } from "./watch-feed-observer.ts";
export { openEventArchive, type EventArchive } from "./open-event-archive.ts";
export { openJobBacklog, type JobBacklog } from "./open-job-backlog.ts";
export { openWatchFeedRegistry, type WatchFeedRegistry } from "./open-watch-feed-registry.ts";
