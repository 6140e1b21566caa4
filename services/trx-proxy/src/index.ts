export { createTrxProxy, createTrxProxyApp, type TrxProxy, type TrxProxyAppConfig, type TrxProxyDependencies } from "./create-trx-proxy.ts";
export { trxProxyConfigSchema, type TrxProxyConfig } from "./config.ts";
