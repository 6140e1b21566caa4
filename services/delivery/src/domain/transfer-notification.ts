/**
 * A transfer notification's body: the scanner's `transfer.matched` as delivery completes it for the
 * webhook (the event contract of issue #30): the body's version, the direction and chain of an event
 * published before the scanner said them, and the extended key that issued the watched address.
 */
import { directionOf, NOTIFICATION_VERSION, type EventPayload, type transferMatched } from "@chaingate/contracts";

export type TransferMatched = EventPayload<typeof transferMatched>;

/** The extended key that issued an address, and the address's index (null when recorded before indexes were kept). */
export interface IssuingKey {
  id: number;
  index: number | null;
}

export function transferNotificationBody(event: TransferMatched, xpub: IssuingKey | null) {
  return {
    ...event,
    version: NOTIFICATION_VERSION,
    chain: event.chain ?? null,
    direction: event.direction ?? directionOf(event),
    xpub,
  };
}

/** How issuing keys are looked up: by webhook and the watched address, ignoring case (Ethereum lists it checksummed or not). */
export const issuingKeyLookup = (webhookId: number, address: string) => `${webhookId}:${address.toLowerCase()}`;
