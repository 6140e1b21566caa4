/** Outbox `slot` that means every bucket of the webhook (a level raise, the 0003 migration). */
export const ALL_BUCKETS = -1;
/** Outbox slots are the top SLOT_BITS bits of the 16-bit bucket hash. */
const SLOT_BITS = 10;

/** The buckets at level `bits` that contain the addresses of outbox slot `slot`. */
export function bucketsOfSlot(slot: number, bits: number): number[] {
  if (bits <= SLOT_BITS) return [slot >>> (SLOT_BITS - bits)];
  const width = 2 ** (bits - SLOT_BITS);
  return Array.from({ length: width }, (_, i) => slot * width + i);
}
