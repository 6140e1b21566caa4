/**
 * Ethereum blocks through the shared node client: `eth_blockNumber`, `eth_getBlockByNumber` with
 * full transactions, and their receipts (status and logs) by `eth_getBlockReceipts`, or one
 * `eth_getTransactionReceipt` per transaction on nodes without it.
 */
import { NodeRpcError, type NodeClient } from "@chaingate/node-client";
import type { EthereumBlock, EthereumLog, EthereumTransaction } from "../domain/match-ethereum-block.ts";
import type { BlockSource } from "../domain/ports.ts";

/** EIP-1474 "method not found". */
const METHOD_NOT_FOUND = -32601;

interface Receipt {
  transactionHash: string;
  status?: string;
  logs: EthereumLog[];
}

const quantity = (height: number) => `0x${height.toString(16)}`;

export function createEthereumBlockSource(node: NodeClient): BlockSource<EthereumBlock> {
  let blockReceipts = true;

  async function receiptsOf(block: EthereumBlock): Promise<Receipt[]> {
    if (block.transactions.length === 0) return [];
    if (blockReceipts) {
      try {
        return (await node.call<Receipt[] | null>("eth_getBlockReceipts", [block.hash])) ?? [];
      } catch (error) {
        if (!(error instanceof NodeRpcError && (error.rpcCode === METHOD_NOT_FOUND || /not (supported|found|available)/i.test(error.rpcMessage)))) throw error;
        blockReceipts = false;
      }
    }
    const receipts = await Promise.all(block.transactions.map((tx) => node.call<Receipt | null>("eth_getTransactionReceipt", [tx.hash])));
    return receipts.filter((receipt): receipt is Receipt => receipt !== null);
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
      const byHash = new Map((await receiptsOf(block)).map((receipt) => [receipt.transactionHash, receipt]));
      const transactions = block.transactions.map((tx): EthereumTransaction => {
        const receipt = byHash.get(tx.hash);
        return { hash: tx.hash, from: tx.from, to: tx.to, value: tx.value, input: tx.input, status: receipt?.status, logs: receipt?.logs };
      });
      return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp, transactions };
    },
  };
}
