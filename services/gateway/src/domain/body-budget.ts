/**
 * Bounds the request-body bytes the gateway holds at once (it reads each body whole before
 * forwarding it): a request reserves its body's size before reading and releases it when it ends.
 */
export interface BodyBudget {
  /** Reserves `bytes`, or answers false (nothing reserved) when that would pass the bound. */
  tryReserve(bytes: number): boolean;
  release(bytes: number): void;
  /** Bytes reserved now. */
  readonly reservedBytes: number;
}

export function createBodyBudget(maxBytes: number): BodyBudget {
  let reserved = 0;
  return {
    tryReserve(bytes) {
      if (reserved + bytes > maxBytes) return false;
      reserved += bytes;
      return true;
    },
    release(bytes) {
      reserved -= bytes;
    },
    get reservedBytes() {
      return reserved;
    },
  };
}
