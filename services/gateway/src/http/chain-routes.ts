/**
 * `GET /api/v1/chains`: the chains this deployment serves, from the chain registry (built-in and
 * EVM_CHAINS), answered by the gateway, authenticated like every path. Built once: the list is
 * configuration.
 */
import type { ChainEntry, ChainRegistry } from "@chaingate/chain-registry";
import type { ChainListBody } from "@chaingate/contracts";
import type { HttpApp } from "@chaingate/http";
import { authenticatedBy } from "./authenticated-by.ts";
import type { AuthenticateRequest } from "./authenticate-request.ts";

/** Usage statistics group of the path. */
export const CHAINS_USAGE_GROUP = "chains";

function chainBody(chain: ChainEntry): ChainListBody["data"][number] {
  return {
    coin: chain.coin,
    prefix: chain.prefix,
    name: chain.name,
    kind: chain.kind,
    native_currency: { symbol: chain.native.symbol, decimals: chain.native.decimals },
    chain_id: chain.evmChainId ?? null,
    block_seconds: chain.blockSeconds,
    confirmations: { default: chain.confirmations.default, max: chain.confirmations.max },
    token_reporting: chain.tokenReporting,
    pending_events: chain.pendingEvents,
  };
}

export function registerChainRoutes(http: HttpApp, options: { authenticate: AuthenticateRequest; registry: ChainRegistry }): void {
  const body: ChainListBody = { data: options.registry.chains.map(chainBody) };
  http.route("get", "/api/v1/chains", authenticatedBy(options.authenticate, CHAINS_USAGE_GROUP), (_req, res) => {
    res.json(body);
  });
}
