/**
 * The delivery's large answers built from address rows (whole webhooks, address pages), counted
 * together for a major GC now and then (@chaingate/http gc-nudge.ts). The GC is the
 * process's, so is the count. (The watch-feed relay's bucket messages are not counted: its memory
 * peak is bounded by how many buckets it reads at once, see BUCKETS_PER_READ and `pnpm bench relay-memory`.)
 */
import { createMajorGcNudge } from "@chaingate/http";

export const largePayloadGarbage = createMajorGcNudge();

/** About what one address takes once read and serialised (an ETH address is 42 characters, its JSON 45). */
export const ADDRESS_PAYLOAD_BYTES = 48;
