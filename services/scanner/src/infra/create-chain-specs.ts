/** The chains the config names, each as its node adapter plus its matcher. */
import { bitcoin, createNodeClient, type NodeAuth, type NodeClient } from "@chaingate/node-client";
import type { ScannerConfig } from "../config.ts";
import { bitcoinBlockHeader, matchBitcoinBlock } from "../domain/match-bitcoin-block.ts";
import type { ChainFollowerSpec } from "../domain/ports.ts";
import { createBitcoinBlockSource } from "./bitcoin-block-source.ts";

export function createChainSpecs(config: ScannerConfig): { specs: Array<ChainFollowerSpec<unknown>>; close(): Promise<void> } {
  const specs: Array<ChainFollowerSpec<unknown>> = [];
  const clients: NodeClient[] = [];
  if (config.BTC_RPC_URL?.length) {
    const auth: NodeAuth = config.BTC_RPC_COOKIE_FILE
      ? { cookieFile: config.BTC_RPC_COOKIE_FILE }
      : config.BTC_RPC_USER !== undefined
        ? { user: config.BTC_RPC_USER, password: config.BTC_RPC_PASSWORD ?? "" }
        : "none";
    const node = createNodeClient({ chain: bitcoin, urls: config.BTC_RPC_URL, auth, timeoutMs: config.NODE_TIMEOUT_MS });
    clients.push(node);
    specs.push({ coin: "BTC", source: createBitcoinBlockSource(node), header: bitcoinBlockHeader, match: matchBitcoinBlock } as ChainFollowerSpec<unknown>);
  }
  return { specs, close: async () => void (await Promise.all(clients.map((client) => client.close()))) };
}
