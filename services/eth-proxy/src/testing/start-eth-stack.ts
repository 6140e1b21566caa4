/**
 * A real Ethereum node (Hardhat Network), a recording relay, an eth-proxy in front of it and a
 * gateway in front of that, with an account and key: what a client of /api/v1/eth talks to.
 */
import { loadConfig } from "@chaingate/config";
import { createAccountWithKey, startTestGateway } from "@chaingate/gateway/testing";
import { silentLogger, startHardhat, type HardhatNode } from "@chaingate/testing";
import { ethProxyConfigSchema } from "../config.ts";
import { createEthProxy, type EthProxy } from "../create-eth-proxy.ts";
import { startRecordingRelay, type RecordingRelay } from "./recording-relay.ts";

export interface EthStack {
  node: HardhatNode;
  /** Between the stack's proxy and the node: what reached the node. */
  relay: RecordingRelay;
  proxy: EthProxy;
  gatewayUrl: string;
  key: string;
  accountId: number;
  /** A request through the gateway with the key. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** An eth-proxy with other settings (not behind the gateway), e.g. a dead node URL. */
  startProxy(env: Record<string, string | undefined>): Promise<EthProxy>;
  stop(): Promise<void>;
}

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
  const proxy = await createEthProxy(loadConfig("eth-proxy", ethProxyConfigSchema, { PORT: "0", ...proxyEnv, ETH_RPC_URL: relay.url }), silentLogger);
  const gateway = await startTestGateway({ ETH_PROXY_URL: proxy.url });
  const { key, accountId } = await createAccountWithKey(gateway.databaseUrl);
  return {
    node,
    relay,
    proxy,
    gatewayUrl: gateway.url,
    key,
    accountId,
    request: (path, init = {}) => fetch(`${gateway.url}${path}`, { ...init, headers: { "x-api-key": key, "content-type": "application/json", ...init.headers } }),
    startProxy,
    async stop() {
      await gateway.close();
      await gateway.dropDatabase();
      await Promise.all([proxy, ...extraProxies].map((p) => p.close()));
      await relay.close();
      await node.stop();
    },
  };
}
