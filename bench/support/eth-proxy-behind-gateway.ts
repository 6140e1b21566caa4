/**
 * The eth-proxy and the gateway as processes (their start scripts), the proxy in front of `nodeUrl`,
 * and a key of a new account: what the Ethereum benches measure through.
 */
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { freePort, spawnService, waitForHttp, type SpawnedService } from "@chaingate/testing";
import { ROOT } from "./processes.ts";

export interface EthProxyBehindGateway {
  proxy: SpawnedService;
  gateway: SpawnedService;
  gatewayUrl: string;
  key: string;
}

/** `gatewayEnv` adds to the gateway's settings (e.g. ACCESS_LOG). The caller stops both processes. */
export async function startEthProxyBehindGateway(
  nodeUrl: string,
  databaseUrl: string,
  gatewayEnv: Record<string, string> = {},
): Promise<EthProxyBehindGateway> {
  const [proxyPort, gatewayPort] = [await freePort(), await freePort()];
  const proxy = spawnService(
    `${ROOT}services/eth-proxy`,
    { PORT: String(proxyPort), ETH_RPC_URL: nodeUrl, LOG_LEVEL: "warn" },
    { captureOutput: false },
  );
  const gateway = spawnService(
    `${ROOT}services/gateway`,
    {
      PORT: String(gatewayPort),
      DATABASE_URL: databaseUrl,
      ETH_PROXY_URL: `http://127.0.0.1:${proxyPort}`,
      LOG_LEVEL: "warn",
      ...gatewayEnv,
    },
    { captureOutput: false },
  );
  await Promise.all([waitForHttp(`http://127.0.0.1:${proxyPort}/healthz`), waitForHttp(`http://127.0.0.1:${gatewayPort}/healthz`)]);
  const { key } = await createAccountWithKey(databaseUrl, "bench");
  return { proxy, gateway, gatewayUrl: `http://127.0.0.1:${gatewayPort}`, key };
}
