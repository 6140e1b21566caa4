/**
 * A real Ethereum node (Hardhat Network), a recording relay and an eth-proxy in front of it,
 * called at its internal edge as the gateway calls it (an account's id and the internal token).
 * Through the gateway: drills/src/e2e. With `chain`, the node is another EVM chain's (its chain
 * id) and the proxy serves it under its prefix from EVM_CHAINS, as an operator configures it.
 */
import { loadConfig } from "@chaingate/config";
import { HARDHAT_CHAIN_ID, internalEdge, silentLogger, startHardhat, TEST_INTERNAL_TOKEN, type HardhatNode } from "@chaingate/testing";
import { ethProxyConfigSchema } from "../config.ts";
import { createEthProxy, type EthProxy } from "../create-eth-proxy.ts";
import { startRecordingRelay, type RecordingRelay } from "./recording-relay.ts";

/** The EVM chain a stack serves: Ethereum (`eth`) or a configured one. */
export interface EthStackChain {
  /** The API prefix: `eth` or the configured chain's name. */
  prefix: string;
  /** The chain id its node answers (a configured chain's is checked). */
  chainId: number;
}

/** Ethereum, served under /api/v1/eth in front of Hardhat's chain 31337. */
export const ETHEREUM_STACK_CHAIN: EthStackChain = { prefix: "eth", chainId: HARDHAT_CHAIN_ID };

/** Polygon as an operator adds it: `[{"name": "polygon", "rpc_urls": […]}]`, its node answering 137. */
export const POLYGON_STACK_CHAIN: EthStackChain = { prefix: "polygon", chainId: 137 };

export interface EthStack {
  node: HardhatNode;
  chain: EthStackChain;
  /** Where the chain's endpoints are: `/api/v1/eth`, `/api/v1/polygon`. */
  base: string;
  /** The spec's generic node failure message, which names the chain (`Could not connect to ETH node.`). */
  nodeFailure: string;
  /** The settings that give the stack's chain these node URLs (none: the chain is not configured). */
  nodeSettings(urls: readonly string[]): Record<string, string | undefined>;
  /** Between the stack's proxy and the node: what reached the node. */
  relay: RecordingRelay;
  proxy: EthProxy;
  /** The proxy's URL. */
  url: string;
  /** The headers the gateway adds for the stack's account. */
  headers: Record<string, string>;
  accountId: number;
  /** A JSON request to the proxy as the gateway forwards it for the stack's account. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** An eth-proxy with other settings (no internal token), e.g. a dead node URL. */
  startProxy(env: Record<string, string | undefined>): Promise<EthProxy>;
  stop(): Promise<void>;
}

/** The account the gateway would have authenticated. */
const STACK_ACCOUNT_ID = 1;

/** Settings that point the chain at `urls`: ETH_RPC_URL for Ethereum, its EVM_CHAINS entry for another. */
function nodeSettingsOf(chain: EthStackChain): (urls: readonly string[]) => Record<string, string | undefined> {
  if (chain.prefix === "eth") return (urls) => ({ ETH_RPC_URL: urls.length ? urls.join(",") : undefined });
  return (urls) => ({ EVM_CHAINS: JSON.stringify([{ name: chain.prefix, chain_id: chain.chainId, symbol: "TEST", rpc_urls: urls }]) });
}

/** `proxyEnv`: more settings of the stack's eth-proxy (e.g. ETH_RPC_MAX_BATCH); `chain`: another EVM chain than Ethereum. */
export async function startEthStack({
  proxyEnv = {},
  chain = ETHEREUM_STACK_CHAIN,
}: { proxyEnv?: Record<string, string>; chain?: EthStackChain } = {}): Promise<EthStack> {
  const node = await startHardhat({ chainId: chain.chainId });
  const nodeSettings = nodeSettingsOf(chain);
  const relay = await startRecordingRelay(node.url);
  const extraProxies: EthProxy[] = [];
  const startProxy = async (env: Record<string, string | undefined>) => {
    const proxy = await createEthProxy(loadConfig("eth-proxy", ethProxyConfigSchema, { PORT: "0", ...env }), silentLogger);
    extraProxies.push(proxy);
    return proxy;
  };
  const proxy = await createEthProxy(
    loadConfig("eth-proxy", ethProxyConfigSchema, {
      PORT: "0",
      ...proxyEnv,
      ...nodeSettings([relay.url]),
      INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    }),
    silentLogger,
  );
  const edge = internalEdge(proxy);
  return {
    node,
    chain,
    base: `/api/v1/${chain.prefix}`,
    nodeFailure: `Could not connect to ${chain.prefix.toUpperCase()} node.`,
    nodeSettings,
    relay,
    proxy,
    url: proxy.url,
    headers: edge.headersFor(STACK_ACCOUNT_ID),
    accountId: STACK_ACCOUNT_ID,
    request: (path, init) => edge.request(STACK_ACCOUNT_ID, path, init),
    startProxy,
    async stop() {
      await Promise.all([proxy, ...extraProxies].map((p) => p.close()));
      await relay.close();
      await node.stop();
    },
  };
}
