/**
 * Which internal service owns a public path. Longest prefixes first: `/api/v1/btc/xpub` belongs
 * to the xpub service, the rest of `/api/v1/btc` to the btc-proxy.
 */
export type UpstreamName = "xpub" | "btc-proxy" | "eth-proxy" | "trx-proxy" | "delivery";

export interface RouteTarget {
  upstream: UpstreamName;
  /** Usage statistics group. */
  group: string;
}

const ROUTES: ReadonlyArray<readonly [prefix: string, target: RouteTarget]> = [
  ["/api/v1/btc/xpub", { upstream: "xpub", group: "btc-xpub" }],
  ["/api/v1/eth/xpub", { upstream: "xpub", group: "eth-xpub" }],
  ["/api/v1/btc", { upstream: "btc-proxy", group: "btc" }],
  ["/api/v1/eth", { upstream: "eth-proxy", group: "eth" }],
  ["/api/v1/trx", { upstream: "trx-proxy", group: "trx" }],
  ["/api/v1/webhooks", { upstream: "delivery", group: "webhooks" }],
];

/** The owner of `pathname` (no query string), or undefined when no service owns it. */
export function resolveRoute(pathname: string): RouteTarget | undefined {
  for (const [prefix, target] of ROUTES) {
    if (pathname.startsWith(prefix) && (pathname.length === prefix.length || pathname[prefix.length] === "/")) return target;
  }
  return undefined;
}
