export {
  COIN_PATTERN,
  COINS,
  coinSchema,
  coinSubject,
  type Coin,
  type EventContract,
  type EventPayload,
  type StreamOptions,
} from "./event-contract.ts";
export { blockProcessed, blockProcessedSchema } from "./block-processed.ts";
export {
  chainIdSchema,
  directionOf,
  isBlockTransfer,
  MEMPOOL_EVENT_TYPES,
  transferMatched,
  transferMatchedSchema,
  blockTransferSchema,
  mempoolTransferSchema,
  TRANSFER_DIRECTIONS,
  TRANSFER_EVENT_RANK,
  TRANSFER_EVENT_TYPES,
  type BlockTransferPayload,
  type MempoolTransferPayload,
} from "./transfer-matched.ts";
export { deliveryFailed, deliveryFailedSchema } from "./delivery-failed.ts";
export { isWatched, webhookChanged, webhookChangedSchema, WEBHOOK_FEED_STREAM, WEBHOOK_FEED_STREAM_OPTIONS } from "./webhook-changed.ts";
export { webhookAddresses, webhookAddressesSchema } from "./webhook-addresses.ts";
export { webhookWatermark, webhookWatermarkSchema } from "./webhook-watermark.ts";
export { webhookFeed, webhookFeedSchema, isAddressBucket, isWatermark, isWebhookMeta, type WebhookFeedMessage } from "./webhook-feed.ts";
export {
  ADDRESSES_PER_BUCKET,
  BUCKET_HASH_BITS,
  MAX_ADDRESSES_PER_BUCKET,
  MAX_BUCKET_BITS,
  bucketBitsFor,
  bucketHash,
  bucketOf,
} from "./webhook-buckets.ts";
export { addressIssued, addressIssuedSchema } from "./address-issued.ts";
export { keyMoved, keyMovedSchema, KEY_MOVES_STREAM_OPTIONS } from "./key-moved.ts";

import { blockProcessed } from "./block-processed.ts";
import { deliveryFailed } from "./delivery-failed.ts";
import { transferMatched } from "./transfer-matched.ts";
import { webhookChanged } from "./webhook-changed.ts";
import { webhookAddresses } from "./webhook-addresses.ts";
import { addressIssued } from "./address-issued.ts";
import { keyMoved } from "./key-moved.ts";
import { webhookWatermark } from "./webhook-watermark.ts";

/** Every publishable event contract (not the consume-only `webhookFeed`); stream set-up creates one stream per distinct `stream`. */
export const ALL_EVENTS = [
  blockProcessed,
  transferMatched,
  deliveryFailed,
  webhookChanged,
  webhookAddresses,
  webhookWatermark,
  addressIssued,
  keyMoved,
] as const;
