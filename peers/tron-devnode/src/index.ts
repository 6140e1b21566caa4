/** @chaingate/tron-devnode: a wire-compatible Tron full-node simulator for the dev stack and tests. */
import type { AddressInfo } from "node:net";
import { createGenesis } from "./genesis.ts";
import type { TronDevnodeGenesis } from "./genesis.ts";
import { createHttpServer } from "./http-server.ts";
import { createJsonRpc } from "./json-rpc.ts";
import type { EnergyCosts } from "./energy-costs.ts";
import { Ledger } from "./ledger.ts";
import type { StoredBlock } from "./ledger/stored-block.ts";
import { printBlock } from "./print-chain-json.ts";
import { createWalletApi } from "./wallet-api.ts";

export type { DevAccount, DevKey, ForwarderContract, Trc10Token, Trc20Token, TronDevnodeGenesis } from "./genesis.ts";
export { FORWARD_AND_REVERT_MESSAGE, FORWARDER_SELECTORS } from "./forwarder-contract.ts";
export { USDD_ADDRESS, USDT_ADDRESS, createGenesis } from "./genesis.ts";
export type { EnergyCosts } from "./energy-costs.ts";
export { MAX_REORG_DEPTH } from "./ledger/ledger-chain.ts";
export { DEFAULT_ENERGY_COSTS } from "./energy-costs.ts";

/** Default listen address. */
export const DEFAULT_HOST = "127.0.0.1";
/** java-tron's full-node HTTP port. */
export const DEFAULT_PORT = 8090;
/** Mainnet block interval. */
export const DEFAULT_BLOCK_INTERVAL_MS = 3_000;

/** Options of {@link startTronDevnode}. */
export interface TronDevnodeOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8090; 0 picks any free port. */
  port?: number;
  /** Default 3000; 0 produces blocks only on demand (produceBlock / POST /admin/produceblock). */
  blockIntervalMs?: number;
  /** TRC-20 energy costs and the dynamic energy factor; defaults are current mainnet USDT's ({@link DEFAULT_ENERGY_COSTS}). */
  energy?: Partial<EnergyCosts>;
  /**
   * Blocks the solidified block trails the head (mainnet: about 19). Default 0: /walletsolidity (TronWeb's
   * getBalance, getTransactionInfo) sees a block as soon as it is produced.
   */
  solidLag?: number;
  /** eth_getLogs' largest block range (java-tron's `node.jsonrpc.maxBlockRange`, default 5000). */
  jsonRpcMaxBlockRange?: number;
}

/** A block as the devnode's control API reports it. */
export interface BlockSummary {
  number: number;
  blockID: string;
}

/** Options of {@link TronDevnode.reorg}. */
export interface TronDevnodeReorgOptions {
  /** Replacement blocks to produce; default `depth` (the height is kept). */
  blocks?: number;
  /** Return the dropped transactions to the pending pool (they go into the next produced block) instead of discarding them. */
  requeue?: boolean;
}

/** What a reorg did. */
export interface TronDevnodeReorg {
  dropped: BlockSummary[];
  produced: BlockSummary[];
  /** txIDs back in the pending pool. */
  requeued: string[];
  /** txIDs gone (not requeued, or no longer valid on the new chain: TAPOS to a dropped block, spent balance…). */
  discarded: string[];
}

/** A running devnode. */
export interface TronDevnode {
  /** Base URL, e.g. http://127.0.0.1:8090 (TronWeb's `fullHost`). */
  url: string;
  /** Packs the pending transactions into a new block now and returns its number and blockID. */
  produceBlock(): Promise<BlockSummary>;
  /**
   * Replaces the newest `depth` blocks (a chain reorganisation): drops them, produces empty replacement blocks
   * with different blockIDs, and discards the dropped transactions or (`requeue`) returns them to the pending pool.
   */
  reorg(depth: number, options?: TronDevnodeReorgOptions): Promise<TronDevnodeReorg>;
  /** Stops block production and the HTTP server. */
  close(): Promise<void>;
  /** The documented dev accounts, TRC-10 ids and TRC-20 contracts (DEV ONLY keys). */
  genesis: TronDevnodeGenesis;
}

function summary(block: StoredBlock): BlockSummary {
  return { number: block.raw.number, blockID: block.idHex };
}

function reorgSummary(ledger: Ledger, depth: number, options: TronDevnodeReorgOptions): TronDevnodeReorg {
  const result = ledger.reorg(depth, options);
  return { ...result, dropped: result.dropped.map(summary), produced: result.produced.map(summary) };
}

/** Starts a devnode: genesis state, block 1 produced at once, HTTP API on host:port. */
export async function startTronDevnode(options: TronDevnodeOptions = {}): Promise<TronDevnode> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const blockIntervalMs = options.blockIntervalMs ?? DEFAULT_BLOCK_INTERVAL_MS;
  if (!Number.isInteger(blockIntervalMs) || blockIntervalMs < 0)
    throw new Error(`blockIntervalMs must be a non-negative integer, got ${blockIntervalMs}`);

  const genesis = createGenesis();
  const ledger = new Ledger(genesis, Date.now, { energy: options.energy, solidLag: options.solidLag });
  // Block 1 gives the head a current timestamp, so transactions referencing it do not look stale.
  ledger.produceBlock();
  const api = createWalletApi(ledger);
  const server = createHttpServer({
    wallet: api.wallet,
    solidity: api.solidity,
    jsonRpc: createJsonRpc(ledger, { maxBlockRange: options.jsonRpcMaxBlockRange }),
    produceBlock: () => printBlock(ledger.produceBlock(), false),
    reorg: (depth, reorgOptions) => reorgSummary(ledger, depth, reorgOptions),
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const timer = blockIntervalMs > 0 ? setInterval(() => ledger.produceBlock(), blockIntervalMs) : undefined;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${urlHost}:${address.port}`,
    genesis,
    produceBlock: async () => summary(ledger.produceBlock()),
    reorg: async (depth, reorgOptions = {}) => reorgSummary(ledger, depth, reorgOptions),
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (timer) clearInterval(timer);
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
