/**
 * The project's Tron simulator (in process, blocks only on demand), a trx-proxy in front of it and a
 * gateway in front of that, with an account and key: what a client of /api/v1/trx talks to.
 */
import { loadConfig } from "@chaingate/config";
import { createAccountWithKey, startTestGateway } from "@chaingate/gateway/testing";
import type { Logger } from "@chaingate/logger";
import { silentLogger } from "@chaingate/testing";
import { startTronDevnode, type TronDevnode, type TronDevnodeOptions } from "@chaingate/tron-devnode";
import { trxProxyConfigSchema } from "../config.ts";
import { createTrxProxy, type TrxProxy, type TrxProxyDependencies } from "../create-trx-proxy.ts";

export interface TrxStack {
  devnode: TronDevnode;
  proxy: TrxProxy;
  gatewayUrl: string;
  key: string;
  /** A request through the gateway with the key. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POST of a JSON body through the gateway. */
  post(path: string, body: unknown): Promise<Response>;
  /** A trx-proxy with other settings behind its own gateway (same key), e.g. a dead node URL. */
  startProxy(env: Record<string, string | undefined>, dependencies?: TrxProxyDependencies): Promise<{ proxy: TrxProxy; request(path: string, init?: RequestInit): Promise<Response> }>;
  stop(): Promise<void>;
}

export interface TrxStackOptions {
  devnode?: TronDevnodeOptions;
  env?: Record<string, string | undefined>;
  logger?: Logger;
  dependencies?: TrxProxyDependencies;
}

export async function startTrxStack(options: TrxStackOptions = {}): Promise<TrxStack> {
  const devnode = await startTronDevnode({ port: 0, blockIntervalMs: 0, ...options.devnode });
  const logger = options.logger ?? silentLogger;
  const proxy = await createTrxProxy(loadConfig("trx-proxy", trxProxyConfigSchema, { PORT: "0", TRON_NODE_URL: devnode.url, ...options.env }), logger, options.dependencies);
  const gateway = await startTestGateway({ TRX_PROXY_URL: proxy.url });
  const { key } = await createAccountWithKey(gateway.databaseUrl);
  const closers: Array<() => Promise<void>> = [];
  const requestVia = (url: string) => (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { "x-api-key": key, accept: "application/json", "content-type": "application/json", ...init.headers } });
  return {
    devnode,
    proxy,
    gatewayUrl: gateway.url,
    key,
    request: requestVia(gateway.url),
    post: (path, body) => requestVia(gateway.url)(path, { method: "POST", body: JSON.stringify(body) }),
    async startProxy(env, dependencies) {
      const other = await createTrxProxy(loadConfig("trx-proxy", trxProxyConfigSchema, { PORT: "0", ...env }), logger, dependencies);
      const otherGateway = await startTestGateway({ TRX_PROXY_URL: other.url }, gateway.databaseUrl);
      closers.push(
        () => otherGateway.close(),
        () => other.close(),
      );
      return { proxy: other, request: requestVia(otherGateway.url) };
    },
    async stop() {
      for (const close of closers) await close();
      await gateway.close();
      await gateway.dropDatabase();
      await proxy.close();
      await devnode.close();
    },
  };
}
