/**
 * Ethereum blocks through the shared node client: `eth_blockNumber`, `eth_getBlockByNumber` with
 * full transactions, and their receipts (status and logs) by `eth_getBlockReceipts`, or one
 * `eth_getTransactionReceipt` per transaction on nodes without it.
 *
 * A block is only returned with one receipt per transaction, in the block's order and of that block:
 * a node that has the block but not (all) its receipts (a load-balanced backend a block behind
 * answers `null`) would otherwise turn ERC-20 deposits into nothing and a failed transaction into
 * SUCCESS. Such an answer throws BlockNotReadyError and the follower retries later.
 */
import { NodeRpcError, type NodeClient } from "@chaingate/node-client";
import type { EthereumBlock, EthereumLog, EthereumTransaction } from "../domain/match-ethereum-block.ts";
import type { BlockSource } from "../domain/ports.ts";
import { BlockNotReadyError } from "../domain/scanner-errors.ts";

/** EIP-1474 "method not found". */
const METHOD_NOT_FOUND = -32601;

interface Receipt {
  /** Typed optional: a node's answer is checked, not trusted. */
  transactionHash?: string;
  /** Absent on some nodes' receipts; when present it must be the block's. */
  blockHash?: string;
  status?: string;
  logs: EthereumLog[];
}

const quantity = (height: number) => `0x${height.toString(16)}`;

export function createEthereumBlockSource(node: NodeClient): BlockSource<EthereumBlock> {
  let blockReceipts = true;

  async function fetchReceipts(block: EthereumBlock, notReady: (reason: string) => BlockNotReadyError): Promise<Array<Receipt | null>> {
    if (blockReceipts) {
      try {
        const receipts = await node.call<Receipt[] | null>("eth_getBlockReceipts", [block.hash]);
        if (receipts === null) throw notReady("eth_getBlockReceipts answered null");
        return receipts;
      } catch (error) {
        if (
          !(
            error instanceof NodeRpcError &&
            (error.rpcCode === METHOD_NOT_FOUND || /not (supported|found|available)/i.test(error.rpcMessage))
          )
        )
          throw error;
        blockReceipts = false;
      }
    }
    return Promise.all(block.transactions.map((tx) => node.call<Receipt | null>("eth_getTransactionReceipt", [tx.hash])));
  }

  /** The block's receipts, one per transaction in the block's order; anything else is a node not ready. */
  async function receiptsOf(block: EthereumBlock, height: number): Promise<Receipt[]> {
    if (block.transactions.length === 0) return [];
    const notReady = (reason: string) => new BlockNotReadyError("ETH", height, reason);
    const receipts = await fetchReceipts(block, notReady);
    if (receipts.length !== block.transactions.length)
      throw notReady(`${receipts.length} receipts for ${block.transactions.length} transactions`);
    const hash = block.hash.toLowerCase();
    return block.transactions.map((tx, i) => {
      const receipt = receipts[i];
      if (!receipt) throw notReady(`no receipt for transaction ${tx.hash}`);
      if (receipt.transactionHash?.toLowerCase() !== tx.hash.toLowerCase())
        throw notReady(`receipt ${i} is of ${receipt.transactionHash}, not of ${tx.hash}`);
      if (receipt.blockHash !== undefined && receipt.blockHash.toLowerCase() !== hash)
        throw notReady(`the receipt of ${tx.hash} is of block ${receipt.blockHash}`);
      return receipt;
    });
  }

  return {
    tipHeight: async () => Number(await node.call<string>("eth_blockNumber")),
    async hashAt(height) {
      const block = await node.call<{ hash: string } | null>("eth_getBlockByNumber", [quantity(height), false]);
      return block?.hash ?? null;
    },
    async blockAt(height) {
      const block = await node.call<EthereumBlock | null>("eth_getBlockByNumber", [quantity(height), true]);
      if (!block) return null;
      const receipts = await receiptsOf(block, height);
      const transactions = block.transactions.map((tx, i): EthereumTransaction => {
        const receipt = receipts[i]!;
        return { hash: tx.hash, from: tx.from, to: tx.to, value: tx.value, input: tx.input, status: receipt.status, logs: receipt.logs };
      });
      return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp, transactions };
    },
  };
}
