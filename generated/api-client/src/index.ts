export { createApiClient, type ApiClient, type ApiClientOptions } from "./create-api-client.ts";
export type { components, operations, paths } from "./schema.ts";
export {
  createEventSubscriber,
  EventsPrunedError,
  SignatureError,
  type EventSubscriber,
  type EventSubscriberOptions,
  type Notification,
} from "./event-subscriber.ts";
