/**
 * `/api/v1/{evm_chain}`: the Ethereum endpoints (xpub included) under the prefix of each EVM
 * chain an operator configures (EVM_CHAINS: polygon, bsc, …), documented once with the chain as a
 * path parameter. The same route modules register them, through a registry that moves each
 * Ethereum path under the parameter; behaviour and answers are Ethereum's (a node failure names the
 * chain: `Could not connect to POLYGON node.`).
 */
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { OpenAPIRegistry } from "../openapi/openapi-registry.ts";
import { z } from "../zod.ts";
import { registerEthPaths } from "./eth.ts";
import { registerEthXpubPaths } from "./xpub.ts";

/** How a configured chain's name is written (the chain registry's rule for EVM_CHAINS names). */
export const EVM_CHAIN_NAME = /^[a-z][a-z0-9]{1,19}$/;

const ETH_BASE = "/api/v1/eth";
const EVM_BASE = "/api/v1/{evm_chain}";

const evmChainParam = z.object({
  evm_chain: z.string().regex(EVM_CHAIN_NAME).openapi({
    description: "A configured EVM chain's name (EVM_CHAINS; `GET /api/v1/chains` lists them). Not `eth`, which has its own paths.",
    example: "polygon",
  }),
});

/** Registers the Ethereum paths once more under `/api/v1/{evm_chain}`. */
export function registerEvmChainPaths(registry: OpenAPIRegistry): void {
  const underChain = new Proxy(registry, {
    get(target, property, receiver) {
      if (property !== "registerPath") return Reflect.get(target, property, receiver) as unknown;
      return (route: RouteConfig) => {
        const params = route.request?.params as z.ZodObject | undefined;
        target.registerPath({
          ...route,
          tags: ["EVM chains"],
          path: route.path.replace(ETH_BASE, EVM_BASE),
          request: { ...route.request, params: params ? params.extend(evmChainParam.shape) : evmChainParam },
        });
      };
    },
  });
  registerEthPaths(underChain);
  registerEthXpubPaths(underChain);
}
