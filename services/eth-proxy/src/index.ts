export { createEthProxy, createEthProxyApp, type EthProxy } from "./create-eth-proxy.ts";
export { ethProxyConfigSchema, type EthProxyConfig } from "./config.ts";
