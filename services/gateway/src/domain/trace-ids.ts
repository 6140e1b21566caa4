/**
 * W3C trace ids for requests that arrive without a `traceparent`. Entropy is drawn from a pooled
 * buffer: two synchronous getrandom calls per request showed up in the gateway's profile.
 */
import { randomFillSync } from "node:crypto";

const POOL_BYTES = 24 * 512;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

function take(bytes: number): string {
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString("hex", offset, offset + bytes);
  offset += bytes;
  return hex;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The trace id of a valid incoming `traceparent`, or undefined. */
export function traceIdOf(traceparent: unknown): string | undefined {
  return typeof traceparent === "string" ? TRACEPARENT.exec(traceparent)?.[1] : undefined;
}

/** A new sampled `traceparent` and its trace id. */
export function newTraceparent(): { traceparent: string; traceId: string } {
  const traceId = take(16);
  return { traceId, traceparent: `00-${traceId}-${take(8)}-01` };
}
