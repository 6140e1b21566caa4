/**
 * A real Bitcoin-compatible regtest node (litecoind), a btc-proxy in front of it and a gateway in
 * front of that, with an account and key: what a client of /api/v1/btc talks to.
 */
import { loadConfig } from "@chaingate/config";
import { createAccountWithKey, startTestGateway } from "@chaingate/gateway/testing";
import { silentLogger, startLitecoindRegtest, type LitecoindRegtest } from "@chaingate/testing";
import { btcProxyConfigSchema } from "../config.ts";
import { createBtcProxy, type BtcProxy } from "../create-btc-proxy.ts";

export interface BtcStack {
  node: LitecoindRegtest;
  proxy: BtcProxy;
  gatewayUrl: string;
  key: string;
  accountId: number;
  /** A request through the gateway with the key. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** A btc-proxy with other settings (not behind the gateway), e.g. a dead node URL. */
  startProxy(env: Record<string, string | undefined>): Promise<BtcProxy>;
  stop(): Promise<void>;
}

export const MATURE_BLOCKS = 101;

export async function startBtcStack(): Promise<BtcStack> {
  // Non-standard transactions (a 50-satoshi dust output) let tests show amounts a double would change.
  const node = await startLitecoindRegtest({ extraArgs: ["-acceptnonstdtxn=1"] });
  await node.mine(MATURE_BLOCKS);
  const nodeEnv = { BTC_RPC_URL: node.rpcUrl, BTC_RPC_USER: node.rpcUser, BTC_RPC_PASSWORD: node.rpcPassword };
  const extraProxies: BtcProxy[] = [];
  const startProxy = async (env: Record<string, string | undefined>) => {
    const proxy = await createBtcProxy(loadConfig("btc-proxy", btcProxyConfigSchema, { PORT: "0", ...env }), silentLogger);
    extraProxies.push(proxy);
    return proxy;
  };
  const proxy = await createBtcProxy(loadConfig("btc-proxy", btcProxyConfigSchema, { PORT: "0", ...nodeEnv }), silentLogger);
  const gateway = await startTestGateway({ BTC_PROXY_URL: proxy.url });
  const { key, accountId } = await createAccountWithKey(gateway.databaseUrl);
  return {
    node,
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
      await node.stop();
    },
  };
}
