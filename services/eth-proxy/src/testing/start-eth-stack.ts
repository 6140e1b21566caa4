/**
 * A real Ethereum node (Hardhat Network), a recording relay and an eth-proxy in front of it,
 * called at its internal edge as the gateway calls it (an account's id and the internal token).
 * Through the gateway: drills/src/e2e.
 */
import { loadConfig } from "@chaingate/config";
import { internalEdge, silentLogger, startHardhat, TEST_INTERNAL_TOKEN, type HardhatNode } from "@chaingate/testing";
import { ethProxyConfigSchema } from "../config.ts";
import { createEthProxy, type EthProxy } from "../create-eth-proxy.ts";
import { startRecordingRelay, type RecordingRelay } from "./recording-relay.ts";

export interface EthStack {
  node: HardhatNode;
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

/** `proxyEnv`: more settings of the stack's eth-proxy (e.g. ETH_RPC_MAX_BATCH). */
export async function startEthStack({ proxyEnv = {} }: { proxyEnv?: Record<string, string> } = {}): Promise<EthStack> {
  const node = await startHardhat();
  const relay = await startRecordingRelay(node.url);
  const extraProxies: EthProxy[] = [];
  const startProxy = async (env: Record<string, string | undefined>) => {
    const proxy = await createEthProxy(loadConfig("eth-proxy", ethProxyConfigSchema, { PORT: "0", ...env }), silentLogger);
    extraProxies.push(proxy);
    return proxy;
  };
  const proxy = await createEthProxy(
    loadConfig("eth-proxy", ethProxyConfigSchema, { PORT: "0", ...proxyEnv, ETH_RPC_URL: relay.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN }),
    silentLogger,
  );
  const edge = internalEdge(proxy);
  return {
    node,
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
