import type { EthereumBlock, EthereumLog, EthereumTransaction } from "../../domain/match-ethereum-block.ts";
import { BlockNotReadyError } from "../../domain/scanner-errors.ts";
import type { EthereumSourceContext, NotReady } from "./ethereum-source-context.ts";
import { lacksBlockReceipts } from "./node-rpc-refusals.ts";

interface Receipt {
  /** Typed optional: a node's answer is checked, not trusted. */
  transactionHash?: string;
  /** Absent on some nodes' receipts; when present it must be the block's. */
  blockHash?: string;
  status?: string;
  logs: EthereumLog[];
}

/**
 * A log's fields the matcher reads (a node's log repeats its block and transaction; its position is
 * its place in the receipt's list, so the block's `logIndex` is not kept either).
 */
const leanLog = ({ address, topics, data }: EthereumLog): EthereumLog => ({ address, topics, data });

async function fetchReceipts(context: EthereumSourceContext, block: EthereumBlock, notReady: NotReady): Promise<Array<Receipt | null>> {
  const { node } = context;
  if (context.blockReceipts) {
    try {
      const receipts = await node.call<Receipt[] | null>("eth_getBlockReceipts", [block.hash]);
      if (receipts === null) throw notReady("eth_getBlockReceipts answered null");
      return receipts;
    } catch (error) {
      if (!lacksBlockReceipts(error)) throw error;
      context.blockReceipts = false;
    }
  }
  return Promise.all(block.transactions.map((tx) => node.call<Receipt | null>("eth_getTransactionReceipt", [tx.hash])));
}

/** The block's receipts (status and logs), one per transaction in the block's order; anything else is a node not ready. */
export async function receiptsOf(
  context: EthereumSourceContext,
  block: EthereumBlock,
  height: number,
): Promise<Array<Pick<EthereumTransaction, "status" | "logs">>> {
  if (block.transactions.length === 0) return [];
  const notReady = (reason: string) => new BlockNotReadyError(context.coin, height, reason);
  const receipts = await fetchReceipts(context, block, notReady);
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
    const logs = Array.isArray(receipt.logs) ? receipt.logs.map(leanLog) : receipt.logs;
    return { status: receipt.status, logs };
  });
}
