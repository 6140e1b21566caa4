export { COINS, coinSubject, type Coin, type EventContract, type EventPayload } from "./event-contract.ts";
export { blockProcessed, blockProcessedSchema } from "./block-processed.ts";
export { transferMatched, transferMatchedSchema, TRANSFER_EVENT_TYPES } from "./transfer-matched.ts";
export { deliveryFailed, deliveryFailedSchema } from "./delivery-failed.ts";
export { webhookChanged, webhookChangedSchema } from "./webhook-changed.ts";
export { addressIssued, addressIssuedSchema } from "./address-issued.ts";

import { blockProcessed } from "./block-processed.ts";
import { deliveryFailed } from "./delivery-failed.ts";
import { transferMatched } from "./transfer-matched.ts";
import { webhookChanged } from "./webhook-changed.ts";
import { addressIssued } from "./address-issued.ts";

/** Every event contract; stream set-up creates one stream per distinct `stream`. */
export const ALL_EVENTS = [blockProcessed, transferMatched, deliveryFailed, webhookChanged, addressIssued] as const;
