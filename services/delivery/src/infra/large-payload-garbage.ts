/**
 * The delivery's large answers built from address rows (whole webhooks, address pages), counted
 * together for a major GC now and then (@chaingate/http nudge-major-gc.ts). The GC is the
 * process's, so is the count. (Counting the watch-feed relay's bucket messages too was tried: the
 * RSS a 1,000,000-address relay leaves, about 400 MB, did not change.)
 */
import { createMajorGcNudge } from "@chaingate/http";

export const largePayloadGarbage = createMajorGcNudge();

/** About what one address takes once read and serialised (an ETH address is 42 characters, its JSON 45). */
export const ADDRESS_PAYLOAD_BYTES = 48;
