/**
 * Bounds the request-body bytes the gateway holds at once (it reads each body whole before
 * forwarding it): a request reserves its body's size before reading and releases it when it ends.
 * Each account may hold at most its share of the whole, so one tenant's slow or idle bodies
 * exhaust its own share, never the others' room. An account holding nothing may always reserve
 * one body (when the whole has room), so a share smaller than a route's body limit never locks
 * an account out.
 */
export type BodyReservation = "reserved" | "account share full" | "budget full";

export interface BodyBudget {
  /** Reserves `bytes` for `accountId`, or says which bound refused it (nothing reserved then). */
  tryReserve(accountId: number, bytes: number): BodyReservation;
  release(accountId: number, bytes: number): void;
  /** Bytes reserved now, over all accounts. */
  readonly reservedBytes: number;
  /** Bytes `accountId` has reserved now. */
  reservedBytesOf(accountId: number): number;
}

export function createBodyBudget(maxBytes: number, maxBytesPerAccount: number): BodyBudget {
  let reserved = 0;
  /** Only accounts holding bytes now: an entry leaves at zero. */
  const byAccount = new Map<number, number>();
  return {
    tryReserve(accountId, bytes) {
      const held = byAccount.get(accountId) ?? 0;
      if (reserved + bytes > maxBytes) return "budget full";
      if (held > 0 && held + bytes > maxBytesPerAccount) return "account share full";
      reserved += bytes;
      byAccount.set(accountId, held + bytes);
      return "reserved";
    },
    release(accountId, bytes) {
      reserved -= bytes;
      const left = (byAccount.get(accountId) ?? 0) - bytes;
      if (left > 0) byAccount.set(accountId, left);
      else byAccount.delete(accountId);
    },
    get reservedBytes() {
      return reserved;
    },
    reservedBytesOf: (accountId) => byAccount.get(accountId) ?? 0,
  };
}
