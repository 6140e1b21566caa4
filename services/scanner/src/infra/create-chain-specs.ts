/** The chains the config names, each as its node adapter plus its matcher. */
import { bitcoinNodeAuth } from "@chaingate/bitcoin";
import { bitcoin, createNodeClient, ethereum, tron, type NodeCallObserver, type NodeClient } from "@chaingate/node-client";
import { tronEvmHex, tronNodeAuth } from "@chaingate/tron";
import type { Coin } from "@chaingate/contracts";
import type { ScannerConfig } from "../config.ts";
import { bitcoinBlockHeader, matchBitcoinBlock } from "../domain/match-bitcoin-block.ts";
import type { ChainFollowerSpec } from "../domain/ports.ts";
import { createBitcoinBlockSource } from "./bitcoin-block-source.ts";
import { createBitcoinMempoolSource } from "./bitcoin-mempool-source.ts";
import { createEthereumMempoolSource } from "./ethereum-mempool-source.ts";
import type { MempoolSource } from "../domain/mempool/mempool-ports.ts";
import { matchTronBlock, tronBlockHeader, type TronBlockData, type TronTokens } from "../domain/match-tron-block.ts";
import type { WatchIndex } from "../domain/watch-index.ts";
import { createTronBlockSource } from "./tron-block-source.ts";
import { ethereumBlockHeader, matchEthereumBlock, type EthereumBlock, type EthereumTokens } from "../domain/match-ethereum-block.ts";
import { createEthereumBlockSource } from "./ethereum-block-source.ts";
import type { ChainNode } from "../domain/chain-guard.ts";
import { createChainIdentityCheck, IDENTITY_BY_KIND } from "./chain-identity.ts";
import { perBuiltInChain } from "@chaingate/chain-registry";

/** The chains the config gives a node for (the ones this scanner follows). */
export function chainsConfigured(config: ScannerConfig): Coin[] {
  return [config.BTC_RPC_URL?.length && "BTC", config.ETH_RPC_URL?.length && "ETH", config.TRON_NODE_URL?.length && "TRX"].filter(
    (coin): coin is Coin => typeof coin === "string",
  );
}

export type ChainNodes = Partial<Record<Coin, ChainNode & { answering(): boolean }>>;

/**
 * `onCall` observes every node call of a chain (metrics). Each client checks a URL's chain identity
 * before it answers (after failovers and cool-downs too); `nodes` are the guards' view of them.
 */
export function createChainSpecs(
  config: ScannerConfig,
  onCall?: (coin: Coin) => NodeCallObserver,
  /** The Ethereum node refuses the configured trace method (why), or traces again (null). */
  onCallTraces?: (coin: Coin, refusal: string | null) => void,
): {
  specs: Array<ChainFollowerSpec<unknown>>;
  nodes: ChainNodes;
  /** The mempools of chains that have one (issue #29): Bitcoin, Ethereum. */
  mempools: Partial<Record<Coin, MempoolSource<unknown>>>;
  /** The CAIP-2 id of the chain a coin's guard expects (events carry it); undefined before the guard adopted one. */
  chainId(coin: Coin): string | undefined;
  close(): Promise<void>;
} {
  const specs: Array<ChainFollowerSpec<unknown>> = [];
  const clients: NodeClient[] = [];
  const nodes: ChainNodes = {};
  const mempools: Partial<Record<Coin, MempoolSource<unknown>>> = {};
  const checks = perBuiltInChain(({ kind }) => createChainIdentityCheck(IDENTITY_BY_KIND[kind].read, IDENTITY_BY_KIND[kind].chainIdOf));
  /** A chain's client options beyond its URLs: metrics and the identity check. */
  const watched = (coin: Coin) => ({ verifyEndpoint: checks[coin].verifyEndpoint, ...(onCall ? { onCall: onCall(coin) } : {}) });
  const keep = (coin: Coin, node: NodeClient) => {
    clients.push(node);
    nodes[coin] = checks[coin].node(node);
  };
  if (config.BTC_RPC_URL?.length) {
    const node = createNodeClient({
      chain: bitcoin,
      urls: config.BTC_RPC_URL,
      auth: bitcoinNodeAuth(config),
      timeoutMs: config.NODE_TIMEOUT_MS,
      ...watched("BTC"),
    });
    keep("BTC", node);
    mempools.BTC = createBitcoinMempoolSource(node) as MempoolSource<unknown>;
    specs.push({
      coin: "BTC",
      source: createBitcoinBlockSource(node),
      header: bitcoinBlockHeader,
      match: matchBitcoinBlock,
      demoteNode: (reason: string) => node.demoteCurrent(reason),
    } as ChainFollowerSpec<unknown>);
  }
  if (config.ETH_RPC_URL?.length) {
    const node = createNodeClient({ chain: ethereum, urls: config.ETH_RPC_URL, timeoutMs: config.NODE_TIMEOUT_MS, ...watched("ETH") });
    keep("ETH", node);
    const tokens: EthereumTokens = new Map(
      config.ETH_TOKENS.map(({ contract, symbol, decimals }) => [contract, { contract, displayContract: contract, symbol, decimals }]),
    );
    mempools.ETH = createEthereumMempoolSource(node, tokens) as MempoolSource<unknown>;
    const source = createEthereumBlockSource(node, {
      traceMode: config.ETH_TRACE_MODE,
      ...(onCallTraces ? { onCallTraces: (refusal: string | null) => onCallTraces("ETH", refusal) } : {}),
    });
    // A node that refuses traces is said at start, not at its first block with a transaction.
    void source.probeCallTraces();
    specs.push({
      coin: "ETH",
      source,
      header: ethereumBlockHeader,
      match: (block: EthereumBlock, index: WatchIndex) => matchEthereumBlock(block, index, tokens),
      demoteNode: (reason: string) => node.demoteCurrent(reason),
    } as ChainFollowerSpec<EthereumBlock> as ChainFollowerSpec<unknown>);
  }
  if (config.TRON_NODE_URL?.length) {
    const node = createNodeClient({
      chain: tron,
      urls: config.TRON_NODE_URL,
      auth: tronNodeAuth(config),
      timeoutMs: config.NODE_TIMEOUT_MS,
      ...watched("TRX"),
    });
    keep("TRX", node);
    // Keyed by the contract's 20-byte EVM form, as blocks and logs name it.
    const tokens: TronTokens = new Map(
      config.TRC20_WHITELIST.map((token) => {
        const evmHex = tronEvmHex({ base58: token.contract, hex: token.contractHex });
        return [evmHex, { contract: evmHex, displayContract: token.contract, symbol: token.symbol, decimals: token.decimals }];
      }),
    );
    specs.push({
      coin: "TRX",
      source: createTronBlockSource(node),
      header: tronBlockHeader,
      match: (block: TronBlockData, index: WatchIndex) => matchTronBlock(block, index, tokens),
      demoteNode: (reason: string) => node.demoteCurrent(reason),
    } as ChainFollowerSpec<TronBlockData> as ChainFollowerSpec<unknown>);
  }
  return {
    specs,
    nodes,
    mempools,
    chainId: (coin) => checks[coin].chainId(),
    close: async () => void (await Promise.all(clients.map((client) => client.close()))),
  };
}
