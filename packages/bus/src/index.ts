export {
  connectBus,
  DEFAULT_ACK_WAIT_MS,
  DEFAULT_MAX_BATCH,
  DUPLICATE_WINDOW_MS,
  MAX_REDELIVERY_DELAY_MS,
  STREAM_MAX_AGE_MS,
  type BatchItem,
  type Bus,
  type BusLogger,
  type BusOptions,
  type ConsumeBatchesOptions,
  type ConditionalPublishResult,
  type ConsumeOptions,
  type Consumption,
  type MessageInfo,
  type PublishResult,
} from "./connect-bus.ts";
export { extractTraceContext, injectTraceContext } from "./trace-headers.ts";
