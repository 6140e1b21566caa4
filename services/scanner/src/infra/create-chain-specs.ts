/**
 * The chains the config names, each as its node adapter plus its matcher: Bitcoin, Ethereum, Tron,
 * and every EVM chain of EVM_CHAINS that has node URLs, followed as Ethereum is (its own node
 * client, tokens, mempool and reorg window; its own trace_mode, or ETH_TRACE_MODE).
 */
import { bitcoinNodeAuth } from "@chaingate/bitcoin";
import { bitcoin, createNodeClient, ethereum, evmChain, tron, type NodeCallObserver, type NodeClient } from "@chaingate/node-client";
import { BUILT_IN_CHAINS, type ChainEntry } from "@chaingate/chain-registry";
import type { Erc20Token } from "@chaingate/ethereum";
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
import { createChainIdentityCheck, IDENTITY_BY_KIND, type ChainIdentityCheck } from "./chain-identity.ts";
import type { Kysely } from "kysely";
import type { ScannerDatabase } from "./database-schema.ts";
import { createTokenDecimals } from "./token-decimals.ts";

/** The chains the config gives a node for (the ones this scanner follows). */
export function chainsConfigured(config: ScannerConfig): Coin[] {
  const builtIn = [config.BTC_RPC_URL?.length && "BTC", config.ETH_RPC_URL?.length && "ETH", config.TRON_NODE_URL?.length && "TRX"];
  const configured = config.EVM_CHAINS.filter((chain) => chain.rpcUrls.length > 0).map((chain) => chain.entry.coin);
  return [...builtIn.filter((coin): coin is Coin => typeof coin === "string"), ...configured];
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
  /** Where unlisted tokens' decimals are kept (webhooks with all_tokens); without it, EVM chains match listed tokens only. */
  db?: Kysely<ScannerDatabase>,
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
  const checks = new Map<Coin, ChainIdentityCheck>();
  /** A chain's client options beyond its URLs: metrics and the identity check (a configured chain's id first). */
  const watched = ({ coin, kind, evmChainId }: ChainEntry) => {
    const check = createChainIdentityCheck(IDENTITY_BY_KIND[kind].read, IDENTITY_BY_KIND[kind].chainIdOf, evmChainId);
    checks.set(coin, check);
    return { verifyEndpoint: check.verifyEndpoint, ...(onCall ? { onCall: onCall(coin) } : {}) };
  };
  const keep = (coin: Coin, node: NodeClient) => {
    clients.push(node);
    nodes[coin] = checks.get(coin)!.node(node);
  };
  const addEvmChain = (entry: ChainEntry, node: NodeClient, erc20: readonly Erc20Token[], traceMode = config.ETH_TRACE_MODE) => {
    keep(entry.coin, node);
    const tokens: EthereumTokens = new Map(
      erc20.map(({ contract, symbol, decimals }) => [contract, { contract, displayContract: contract, symbol, decimals }]),
    );
    mempools[entry.coin] = createEthereumMempoolSource(node, tokens, entry) as MempoolSource<unknown>;
    const source = createEthereumBlockSource(node, {
      coin: entry.coin,
      traceMode,
      ...(onCallTraces ? { onCallTraces: (refusal: string | null) => onCallTraces(entry.coin, refusal) } : {}),
    });
    // A node that refuses traces is said at start, not at its first block with a transaction.
    void source.probeCallTraces();
    const unlisted = db ? createTokenDecimals({ coin: entry.coin, db, node, listed: tokens }) : undefined;
    specs.push({
      coin: entry.coin,
      source,
      header: ethereumBlockHeader,
      match: (block: EthereumBlock, index: WatchIndex) => matchEthereumBlock(block, index, tokens, entry, unlisted),
      ...(unlisted ? { prepare: (block: EthereumBlock, index: WatchIndex) => unlisted.prepare(block, index) } : {}),
      demoteNode: (reason: string) => node.demoteCurrent(reason),
    } as ChainFollowerSpec<EthereumBlock> as ChainFollowerSpec<unknown>);
  };
  if (config.BTC_RPC_URL?.length) {
    const node = createNodeClient({
      chain: bitcoin,
      urls: config.BTC_RPC_URL,
      auth: bitcoinNodeAuth(config),
      timeoutMs: config.NODE_TIMEOUT_MS,
      ...watched(BUILT_IN_CHAINS.BTC),
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
    const entry = BUILT_IN_CHAINS.ETH;
    addEvmChain(
      entry,
      createNodeClient({ chain: ethereum, urls: config.ETH_RPC_URL, timeoutMs: config.NODE_TIMEOUT_MS, ...watched(entry) }),
      config.ETH_TOKENS,
    );
  }
  for (const { entry, rpcUrls, tokens, traceMode } of config.EVM_CHAINS) {
    if (!rpcUrls.length) continue;
    const chain = evmChain(entry.prefix, entry.name);
    const node = createNodeClient({ chain, urls: rpcUrls, timeoutMs: config.NODE_TIMEOUT_MS, ...watched(entry) });
    addEvmChain(entry, node, tokens, traceMode);
  }
  if (config.TRON_NODE_URL?.length) {
    const node = createNodeClient({
      chain: tron,
      urls: config.TRON_NODE_URL,
      auth: tronNodeAuth(config),
      timeoutMs: config.NODE_TIMEOUT_MS,
      ...watched(BUILT_IN_CHAINS.TRX),
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
    chainId: (coin) => checks.get(coin)?.chainId(),
    close: async () => void (await Promise.all(clients.map((client) => client.close()))),
  };
}
