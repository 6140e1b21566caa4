/**
 * Which internal service owns a public path. Longest prefixes first: `/api/v1/btc/xpub` belongs
 * to the xpub service, the rest of `/api/v1/btc` to the btc-proxy.
 */
import { requestBodyLimitBytes } from "@chaingate/contracts";

export type UpstreamName = "xpub" | "btc-proxy" | "eth-proxy" | "trx-proxy" | "delivery";

export interface RouteTarget {
  upstream: UpstreamName;
  /** Usage statistics group. */
  group: string;
  /**
   * Largest request body the owning service accepts (`REQUEST_BODY_LIMITS`, shared with the
   * services): a larger one is refused by the gateway before it is read. Capped by MAX_REQUEST_BODY_BYTES.
   */
  bodyLimitBytes: number;
}

const ROUTES: ReadonlyArray<readonly [prefix: string, target: RouteTarget]> = [
  ["/api/v1/btc/xpub", { upstream: "xpub", group: "btc-xpub", bodyLimitBytes: requestBodyLimitBytes("xpub") }],
  ["/api/v1/eth/xpub", { upstream: "xpub", group: "eth-xpub", bodyLimitBytes: requestBodyLimitBytes("xpub") }],
  ["/api/v1/btc", { upstream: "btc-proxy", group: "btc", bodyLimitBytes: requestBodyLimitBytes("btc") }],
  ["/api/v1/eth", { upstream: "eth-proxy", group: "eth", bodyLimitBytes: requestBodyLimitBytes("eth") }],
  ["/api/v1/trx", { upstream: "trx-proxy", group: "trx", bodyLimitBytes: requestBodyLimitBytes("trx") }],
  ["/api/v1/webhooks", { upstream: "delivery", group: "webhooks", bodyLimitBytes: requestBodyLimitBytes("webhooks") }],
];

/** Finds the owner of a path (no query string), or undefined when no service owns it. */
export type RouteResolver = (pathname: string) => RouteTarget | undefined;

/**
 * The route table with each configured EVM chain's prefix (EVM_CHAINS: `/api/v1/polygon`) owned by
 * the eth-proxy, which serves it as `/api/v1/eth`, and its `/xpub` by the xpub service, counted in
 * usage groups of its own name (`polygon`, `polygon-xpub`).
 */
export function createRouteResolver(evmChainPrefixes: readonly string[] = []): RouteResolver {
  const evmRoutes = evmChainPrefixes.flatMap((prefix) => [
    [`/api/v1/${prefix}/xpub`, { upstream: "xpub", group: `${prefix}-xpub`, bodyLimitBytes: requestBodyLimitBytes("xpub") }] as const,
    [`/api/v1/${prefix}`, { upstream: "eth-proxy", group: prefix, bodyLimitBytes: requestBodyLimitBytes("eth") }] as const,
  ]);
  const routes = [...ROUTES, ...evmRoutes];
  return (pathname) => {
    for (const [prefix, target] of routes) {
      if (pathname.startsWith(prefix) && (pathname.length === prefix.length || pathname[prefix.length] === "/")) return target;
    }
    return undefined;
  };
}

/** The owner of `pathname` (no query string) with the built-in chains only. */
export const resolveRoute: RouteResolver = createRouteResolver();
