import type { EthereumBlock, EthereumTransaction } from "../../domain/match-ethereum-block.ts";
import { BlockNotReadyError } from "../../domain/scanner-errors.ts";
import type { EthereumSourceContext } from "./ethereum-source-context.ts";
import { internalTransfersOf } from "./internal-transfers-of.ts";
import { receiptsOf } from "./receipts-of.ts";

export const quantity = (height: number) => `0x${height.toString(16)}`;

/**
 * The block at `height` with its transactions, each with its receipt's status and logs and (with
 * tracing on) its internal transfers; null when the node has no block there.
 */
export async function ethereumBlockAt(context: EthereumSourceContext, height: number): Promise<EthereumBlock | null> {
  const { node, traceMode } = context;
  const answer = await node.call<EthereumBlock | null>("eth_getBlockByNumber", [quantity(height), true]);
  if (!answer) return null;
  const notReady = (reason: string) => new BlockNotReadyError(context.coin, height, reason);
  if (!Array.isArray(answer.transactions)) throw notReady("eth_getBlockByNumber answered a block without its transactions");
  // Only what the matcher reads is kept, and the node's full objects (signatures, blooms, the
  // trace tree) are let go as soon as they are read: a traced block's answers arrive one after
  // another, and whatever is still held when the next one is parsed is copied by the collector.
  const block: EthereumBlock = {
    number: answer.number,
    hash: answer.hash,
    parentHash: answer.parentHash,
    timestamp: answer.timestamp,
    transactions: answer.transactions.map(
      (tx): EthereumTransaction => ({
        hash: tx.hash,
        from: tx.from,
        to: tx.to,
        value: tx.value,
        input: tx.input,
        status: undefined,
        logs: undefined,
        internalTransfers: undefined,
      }),
    ),
  };
  const [receipts, internal] = await Promise.all([
    receiptsOf(context, block, height),
    traceMode === "off" || block.transactions.length === 0 ? undefined : internalTransfersOf(context, block, notReady),
  ]);
  block.transactions.forEach((tx, i) => {
    tx.status = receipts[i]!.status;
    tx.logs = receipts[i]!.logs;
    tx.internalTransfers = internal?.[i];
  });
  return block;
}
