/**
 * An Ethereum node's transaction pool for the mempool watcher (issue #29): `txpool_content`'s
 * executable (`pending`) transactions, full, in one call (geth, erigon, reth, nethermind, anvil;
 * providers rarely offer it); from a node that refuses it, the `pending` block's transactions
 * (what the node would mine next: a full pool may hold more). Each is matched with the block matcher: its own ether transfer, and a
 * direct `transfer(to, amount)` call to a whitelisted token as the Transfer log it will emit (log
 * 0, the position its mined transfer has). What it spends is its sender's nonce: another transaction
 * of that sender and nonce, in the pool or mined, "replaced" it.
 */
import { decodeTransferCall, ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";
import { formatUnits } from "@chaingate/decimal-amount";
import type { NodeClient } from "@chaingate/node-client";
import { matchEthereumBlock, type EthereumTokens, type EthereumTransaction, type EvmChainEntry } from "../domain/match-ethereum-block.ts";
import { BUILT_IN_CHAINS } from "@chaingate/chain-registry";
import type { MempoolSource } from "../domain/mempool/mempool-ports.ts";
import { refusesMethod } from "./ethereum-block-source/node-rpc-refusals.ts";

/** Blocks searched, newest first, for the transaction that used a pending one's nonce. */
const CONFLICT_SEARCH_BLOCKS = 6;
const GWEI_DECIMALS = 9;

/** A transaction as `txpool_content` and `eth_getBlockByNumber(n, true)` give it. */
export interface PoolTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  input: string;
  nonce: string;
  gasPrice?: string;
  maxFeePerGas?: string;
}

type PoolContent = { pending?: Record<string, Record<string, PoolTransaction>> };

/** The recipient of a `transfer(address,uint256)` call, 0x and lower case; undefined for other input. */
function transferRecipient(tx: PoolTransaction): string | undefined {
  const call = decodeTransferCall(tx.input);
  return call && `0x${call.recipient}`;
}

/** The pool transaction as the block matcher reads a mined one: a token transfer call with the log it will emit. */
function asMined(tx: PoolTransaction, tokens: EthereumTokens): EthereumTransaction {
  const call = decodeTransferCall(tx.input);
  const token = tx.to === null ? undefined : tokens.get(tx.to.toLowerCase());
  const word = (hexDigits: string) => `0x${hexDigits.toLowerCase().padStart(64, "0")}`;
  const logs =
    token && call
      ? [
          {
            address: tx.to!,
            topics: [`0x${ERC20_TRANSFER_TOPIC}`, word(tx.from.slice(2)), word(call.recipient)],
            data: `0x${call.amountHex}`,
          },
        ]
      : [];
  return { hash: tx.hash, from: tx.from, to: tx.to, value: tx.value, input: tx.input, logs };
}

/** `chain`: Ethereum, or a configured EVM chain (its coin and native currency). */
export function createEthereumMempoolSource(
  node: NodeClient,
  tokens: EthereumTokens,
  chain: EvmChainEntry = BUILT_IN_CHAINS.ETH,
): MempoolSource<PoolTransaction> {
  // The last read of the pool, by hash: the transactions are read with the txids, in one call.
  let pool = new Map<string, PoolTransaction>();
  let txpool = true;
  return {
    coin: chain.coin,
    mined: "replaced",
    async txids() {
      const transactions: PoolTransaction[] = [];
      if (txpool) {
        try {
          const content = await node.call<PoolContent>("txpool_content");
          for (const bySender of Object.values(content.pending ?? {})) transactions.push(...Object.values(bySender));
        } catch (error) {
          if (!refusesMethod(error)) throw error;
          txpool = false;
        }
      }
      if (!txpool) {
        const block = await node.call<{ transactions: PoolTransaction[] } | null>("eth_getBlockByNumber", ["pending", true]);
        transactions.push(...(block?.transactions ?? []));
      }
      pool = new Map(transactions.map((tx) => [tx.hash, tx]));
      return [...pool.keys()];
    },
    // One announced since the last read of the pool (newPendingTransactions) is read by hash; mined already: gone.
    transactions: (txids) =>
      Promise.all(
        txids.map(async (txid) => {
          const known = pool.get(txid);
          if (known) return known;
          const tx = await node.call<(PoolTransaction & { blockHash?: string | null }) | null>("eth_getTransactionByHash", [txid]);
          if (!tx || tx.blockHash) return null;
          pool.set(txid, tx);
          return tx;
        }),
      ),
    txid: (tx) => tx.hash,
    keys(tx) {
      const recipient = transferRecipient(tx);
      return [tx.from.toLowerCase(), ...(tx.to ? [tx.to.toLowerCase()] : []), ...(recipient ? [recipient] : [])];
    },
    spends: (tx) => [`${tx.from.toLowerCase()}:${Number(tx.nonce)}`],
    match: (txs, index) =>
      matchEthereumBlock(
        { number: "0x0", hash: "", parentHash: "", timestamp: "0x0", transactions: txs.map((tx) => asMined(tx, tokens)) },
        index,
        tokens,
        chain,
      ),
    async details(txid) {
      const tx = pool.get(txid);
      if (!tx) return null;
      const price = tx.maxFeePerGas ?? tx.gasPrice;
      return { replaceable: true, feeRate: price === undefined ? null : formatUnits(BigInt(price), GWEI_DECIMALS) };
    },
    isMined: async (txid) => (await node.call("eth_getTransactionReceipt", [txid])) !== null,
    async minedConflict(spends) {
      for (const spend of spends) {
        const [sender, nonce] = spend.split(":") as [string, string];
        if (Number(await node.call<string>("eth_getTransactionCount", [sender, "latest"])) <= Number(nonce)) continue;
        // The nonce is used: find which transaction used it.
        let height = Number(await node.call<string>("eth_blockNumber"));
        for (let searched = 0; searched < CONFLICT_SEARCH_BLOCKS && height >= 0; searched++, height--) {
          const block = await node.call<{ transactions: PoolTransaction[] }>("eth_getBlockByNumber", [`0x${height.toString(16)}`, true]);
          const user = block.transactions.find((tx) => tx.from.toLowerCase() === sender && Number(tx.nonce) === Number(nonce));
          if (user) return user.hash;
        }
        return null;
      }
      return undefined;
    },
  };
}
