export { createTrxProxy, createTrxProxyApp, type TrxProxy, type TrxProxyAppConfig, type TrxProxyDependencies } from "./create-trx-proxy.ts";
export { trxProxyConfigSchema, type TrxProxyConfig } from "./config.ts";
export { DEFAULT_TRC20_WHITELIST, type Trc20Token } from "./domain/trc20-whitelist.ts";
