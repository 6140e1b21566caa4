/**
 * The chains an eth-proxy serves: Ethereum under /api/v1/eth (ETH_RPC_URL), and each EVM chain of
 * EVM_CHAINS under /api/v1/{name} with its own node client. A configured chain's nodes must answer
 * its chain id: a node that answers another is refused before it serves a call (its URL is skipped,
 * as an unhealthy one is), and said at start in an error log, so a wrong URL never answers for
 * the chain. Ethereum takes its node's chain id as it is (mainnet, a testnet or a dev chain).
 */
import type { ConfiguredEvmChain } from "@chaingate/chain-registry";
import type { Logger } from "@chaingate/logger";
import { createNodeClient, ethereum, evmChain, type NodeClient, type NodeEndpoint } from "@chaingate/node-client";
import type { EthProxyConfig } from "./config.ts";

export interface ServedEvmChain {
  /** The API path segment: `eth`, or the configured chain's name. */
  prefix: string;
  node: NodeClient;
}

/** Refuses a node whose `eth_chainId` is not `chainId`. */
export function expectChainId(chainId: number): (endpoint: NodeEndpoint) => Promise<string | undefined> {
  return async (endpoint) => {
    const answered = Number(BigInt(await endpoint.call<string>("eth_chainId")));
    return answered === chainId ? undefined : `answers chain id ${answered}, not ${chainId}`;
  };
}

export function createServedEvmChains(config: EthProxyConfig, logger: Logger): ServedEvmChain[] {
  const timings = { timeoutMs: config.ETH_RPC_TIMEOUT_MS, streamIdleTimeoutMs: config.ETH_RPC_STREAM_IDLE_TIMEOUT_MS };
  const served: ServedEvmChain[] = [
    { prefix: "eth", node: createNodeClient({ chain: ethereum, urls: config.ETH_RPC_URL ?? [], ...timings }) },
  ];
  for (const chain of config.EVM_CHAINS) served.push({ prefix: chain.entry.prefix, node: configuredChainNode(chain, timings, logger) });
  return served;
}

function configuredChainNode(
  { entry, rpcUrls }: ConfiguredEvmChain,
  timings: { timeoutMs: number; streamIdleTimeoutMs: number },
  logger: Logger,
): NodeClient {
  const check = expectChainId(entry.evmChainId!);
  return createNodeClient({
    chain: evmChain(entry.prefix, entry.name),
    urls: rpcUrls,
    ...timings,
    verifyEndpoint: async (endpoint) => {
      const refusal = await check(endpoint);
      if (refusal !== undefined)
        logger.error(
          { chain: entry.prefix, url: endpoint.url, refusal },
          `${entry.name}: a node ${refusal}: refused (fix its URL in EVM_CHAINS)`,
        );
      return refusal;
    },
  });
}
