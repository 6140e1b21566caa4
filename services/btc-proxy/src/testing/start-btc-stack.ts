/**
 * A real Bitcoin-compatible regtest node (litecoind) and a btc-proxy in front of it, called at its
 * internal edge as the gateway calls it (an account's id and the internal token). Through the
 * gateway: drills/src/e2e.
 */
import { loadConfig } from "@chaingate/config";
import { internalEdge, silentLogger, startLitecoindRegtest, TEST_INTERNAL_TOKEN, type LitecoindRegtest } from "@chaingate/testing";
import { btcProxyConfigSchema } from "../config.ts";
import { createBtcProxy, type BtcProxy } from "../create-btc-proxy.ts";

export interface BtcStack {
  node: LitecoindRegtest;
  proxy: BtcProxy;
  /** The proxy's URL. */
  url: string;
  /** The headers the gateway adds for the stack's account. */
  headers: Record<string, string>;
  accountId: number;
  /** A JSON request to the proxy as the gateway forwards it for the stack's account. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** A btc-proxy with other settings (no internal token), e.g. a dead node URL. */
  startProxy(env: Record<string, string | undefined>): Promise<BtcProxy>;
  stop(): Promise<void>;
}

export const MATURE_BLOCKS = 101;
/** The account the gateway would have authenticated. */
const STACK_ACCOUNT_ID = 1;

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
  const proxy = await createBtcProxy(
    loadConfig("btc-proxy", btcProxyConfigSchema, { PORT: "0", ...nodeEnv, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN }),
    silentLogger,
  );
  const edge = internalEdge(proxy);
  return {
    node,
    proxy,
    url: proxy.url,
    headers: edge.headersFor(STACK_ACCOUNT_ID),
    accountId: STACK_ACCOUNT_ID,
    request: (path, init) => edge.request(STACK_ACCOUNT_ID, path, init),
    startProxy,
    async stop() {
      await Promise.all([proxy, ...extraProxies].map((p) => p.close()));
      await node.stop();
    },
  };
}
