/**
 * The largest request body each public route family accepts, in one place: the owning service's
 * default limit (its JSON-RPC route's, for a chain proxy; its other routes take 1mb) and what the
 * gateway lets through, refusing a larger `Content-Length` unread. A service started with a higher
 * limit still gets at most this through the gateway.
 */
export const REQUEST_BODY_LIMITS = {
  xpub: "1mb",
  btc: "5mb",
  eth: "5mb",
  trx: "1mb",
  /** 10,000 addresses of up to 255 characters (the per-request cap) fit. */
  webhooks: "3mb",
} as const satisfies Record<string, `${number}mb`>;

export type RouteFamily = keyof typeof REQUEST_BODY_LIMITS;

/** A family's limit in bytes. */
export function requestBodyLimitBytes(family: RouteFamily): number {
  return Number.parseInt(REQUEST_BODY_LIMITS[family], 10) * 1024 * 1024;
}
