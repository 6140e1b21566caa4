/**
 * The project's Tron simulator (in process, blocks only on demand) and a trx-proxy in front of it,
 * called at its internal edge as the gateway calls it (an account's id and the internal token).
 * Through the gateway: drills/src/e2e.
 */
import { loadConfig } from "@chaingate/config";
import type { Logger } from "@chaingate/logger";
import { internalEdge, silentLogger, TEST_INTERNAL_TOKEN } from "@chaingate/testing";
import { startTronDevnode, type TronDevnode, type TronDevnodeOptions } from "@chaingate/tron-devnode";
import { trxProxyConfigSchema } from "../config.ts";
import { createTrxProxy, type TrxProxy, type TrxProxyDependencies } from "../create-trx-proxy.ts";

export interface TrxStack {
  devnode: TronDevnode;
  proxy: TrxProxy;
  /** A JSON request to the proxy as the gateway forwards it for the stack's account. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POST of a JSON body, as `request`. */
  post(path: string, body: unknown): Promise<Response>;
  /** A trx-proxy with other settings, called the same way, e.g. a dead node URL. */
  startProxy(
    env: Record<string, string | undefined>,
    dependencies?: TrxProxyDependencies,
  ): Promise<{ proxy: TrxProxy; request(path: string, init?: RequestInit): Promise<Response> }>;
  stop(): Promise<void>;
}

export interface TrxStackOptions {
  devnode?: TronDevnodeOptions;
  env?: Record<string, string | undefined>;
  logger?: Logger;
  dependencies?: TrxProxyDependencies;
}

/** The account the gateway would have authenticated. */
const STACK_ACCOUNT_ID = 1;

export async function startTrxStack(options: TrxStackOptions = {}): Promise<TrxStack> {
  const devnode = await startTronDevnode({ port: 0, blockIntervalMs: 0, ...options.devnode });
  const logger = options.logger ?? silentLogger;
  const settings = { PORT: "0", INTERNAL_TOKEN: TEST_INTERNAL_TOKEN };
  const proxy = await createTrxProxy(
    loadConfig("trx-proxy", trxProxyConfigSchema, { ...settings, TRON_NODE_URL: devnode.url, ...options.env }),
    logger,
    options.dependencies,
  );
  const closers: Array<() => Promise<void>> = [];
  const requestVia = (served: TrxProxy) => {
    const edge = internalEdge(served);
    return (path: string, init: RequestInit = {}) =>
      edge.request(STACK_ACCOUNT_ID, path, { ...init, headers: { accept: "application/json", ...init.headers } });
  };
  const request = requestVia(proxy);
  return {
    devnode,
    proxy,
    request,
    post: (path, body) => request(path, { method: "POST", body: JSON.stringify(body) }),
    async startProxy(env, dependencies) {
      const other = await createTrxProxy(loadConfig("trx-proxy", trxProxyConfigSchema, { ...settings, ...env }), logger, dependencies);
      closers.push(() => other.close());
      return { proxy: other, request: requestVia(other) };
    },
    async stop() {
      for (const close of closers) await close();
      await proxy.close();
      await devnode.close();
    },
  };
}
