/**
 * Which internal service owns a public path. Longest prefixes first: `/api/v1/btc/xpub` belongs
 * to the xpub service, the rest of `/api/v1/btc` to the btc-proxy.
 */
export type UpstreamName = "xpub" | "btc-proxy" | "eth-proxy" | "trx-proxy" | "delivery";

export interface RouteTarget {
  upstream: UpstreamName;
  /** Usage statistics group. */
  group: string;
  /**
   * Largest request body the owning service accepts (its default limit): a larger one is refused
   * by the gateway before it is read. Capped by MAX_REQUEST_BODY_BYTES.
   */
  bodyLimitBytes: number;
}

const MIB = 1024 * 1024;
/**
 * The services' own body limits, in one place. A service started with a higher limit (the proxies'
 * JSONRPC_BODY_LIMIT) still gets at most these through the gateway.
 */
const BODY_LIMIT_BYTES = {
  /** express json default (`@chaingate/http` DEFAULT_JSON_BODY_LIMIT, "1mb"). */
  xpub: 1 * MIB,
  /** JSONRPC_BODY_LIMIT default "5mb" (other routes take 1mb). */
  "btc-proxy": 5 * MIB,
  "eth-proxy": 5 * MIB,
  /** JSONRPC_BODY_LIMIT default and the json limit of its other routes. */
  "trx-proxy": 1 * MIB,
  /** delivery's WEBHOOK_BODY_LIMIT ("3mb"): a webhook with many addresses. */
  delivery: 3 * MIB,
} as const satisfies Record<UpstreamName, number>;

const ROUTES: ReadonlyArray<readonly [prefix: string, target: RouteTarget]> = [
  ["/api/v1/btc/xpub", { upstream: "xpub", group: "btc-xpub", bodyLimitBytes: BODY_LIMIT_BYTES["xpub"] }],
  ["/api/v1/eth/xpub", { upstream: "xpub", group: "eth-xpub", bodyLimitBytes: BODY_LIMIT_BYTES["xpub"] }],
  ["/api/v1/btc", { upstream: "btc-proxy", group: "btc", bodyLimitBytes: BODY_LIMIT_BYTES["btc-proxy"] }],
  ["/api/v1/eth", { upstream: "eth-proxy", group: "eth", bodyLimitBytes: BODY_LIMIT_BYTES["eth-proxy"] }],
  ["/api/v1/trx", { upstream: "trx-proxy", group: "trx", bodyLimitBytes: BODY_LIMIT_BYTES["trx-proxy"] }],
  ["/api/v1/webhooks", { upstream: "delivery", group: "webhooks", bodyLimitBytes: BODY_LIMIT_BYTES["delivery"] }],
];

/** The owner of `pathname` (no query string), or undefined when no service owns it. */
export function resolveRoute(pathname: string): RouteTarget | undefined {
  for (const [prefix, target] of ROUTES) {
    if (pathname.startsWith(prefix) && (pathname.length === prefix.length || pathname[prefix.length] === "/")) return target;
  }
  return undefined;
}
