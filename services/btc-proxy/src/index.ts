export { createBtcProxy, type BtcProxy } from "./create-btc-proxy.ts";
export { btcProxyConfigSchema, type BtcProxyConfig } from "./config.ts";
