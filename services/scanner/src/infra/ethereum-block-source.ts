/**
 * Ethereum blocks through the shared node client: `eth_blockNumber`, `eth_getBlockByNumber` with
 * full transactions, and their receipts (status and logs) by `eth_getBlockReceipts`, or one
 * `eth_getTransactionReceipt` per transaction on nodes without it.
 *
 * A block is only returned with one receipt per transaction, in the block's order and of that block:
 * a node that has the block but not (all) its receipts (a load-balanced backend a block behind
 * answers `null`) would otherwise turn ERC-20 deposits into nothing and a failed transaction into
 * SUCCESS. Such an answer throws BlockNotReadyError and the follower retries later.
 *
 * With call tracing on (`ETH_TRACE_MODE`, see the config), a block is complete only with its call
 * traces too: `debug_traceBlockByHash` with geth's `callTracer`, or parity's `trace_block`, one
 * trace per transaction, of that block, in its order. Anything else (an error answer, `null`, a
 * count or a transaction that does not match) is a block not ready: waited for, never matched
 * without its internal transfers. A node that refuses the trace method is reported to
 * `onCallTraces` (log, metric, `/readyz` degraded) and waited for the same way, until it traces or
 * the operator turns tracing off.
 */
import { NodeRpcError, type NodeClient } from "@chaingate/node-client";
import type { EthereumBlock, EthereumLog, EthereumTransaction } from "../domain/match-ethereum-block.ts";
import {
  MalformedTraceError,
  valueFramesFromCallTracer,
  valueFramesFromParityTraces,
  type CallTracerFrame,
  type InternalValueFrame,
  type ParityTrace,
} from "../domain/ethereum-call-frames.ts";
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

/** A log's fields the matcher reads (a node's log repeats its block and transaction). */
const leanLog = ({ address, topics, data, logIndex }: EthereumLog): EthereumLog => ({ address, topics, data, logIndex });

/** How the scanner reads internal transfers: geth's callTracer, parity's trace_block, or not at all. */
export const ETHEREUM_TRACE_MODES = ["debug", "parity", "off"] as const;
export type EthereumTraceMode = (typeof ETHEREUM_TRACE_MODES)[number];

export interface EthereumBlockSourceOptions {
  /** Default "off" (the config's default is "debug"; tests of receipts alone pass nothing). */
  traceMode?: EthereumTraceMode;
  /** The node refuses the trace method (why), or traces again (null); called on each change. */
  onCallTraces?: (refusal: string | null) => void;
}

/** A node without `eth_getBlockReceipts` (EIP-1474 -32601, or the wording nodes use instead). */
const lacksBlockReceipts = (error: unknown) =>
  error instanceof NodeRpcError && (error.rpcCode === METHOD_NOT_FOUND || /not (supported|found|available)/i.test(error.rpcMessage));

/** A trace method the node does not offer: -32601, or a message about the method ("block … not found" is not one). */
const refusesMethod = (error: unknown) =>
  error instanceof NodeRpcError &&
  (error.rpcCode === METHOD_NOT_FOUND ||
    (/method/i.test(error.rpcMessage) &&
      /not (supported|found|available|enabled|allowed)|does not exist|unsupported|disabled/i.test(error.rpcMessage)));

export interface EthereumBlockSource extends BlockSource<EthereumBlock> {
  /**
   * Traces the node's newest block once, so that a node refusing the trace method is reported at
   * start rather than at the first block with a transaction. Never throws.
   */
  probeCallTraces(): Promise<void>;
}

export function createEthereumBlockSource(node: NodeClient, options: EthereumBlockSourceOptions = {}): EthereumBlockSource {
  const traceMode = options.traceMode ?? "off";
  let blockReceipts = true;
  let refusal: string | null = null;
  const reportRefusal = (next: string | null) => {
    if (next === refusal) return;
    refusal = next;
    options.onCallTraces?.(next);
  };

  /** The node's trace answer for the block, refusals reported and turned into "not ready". */
  async function callTraces<T>(method: string, params: unknown[], notReady: (reason: string) => BlockNotReadyError): Promise<T> {
    try {
      const answer = await node.call<T>(method, params);
      reportRefusal(null);
      return answer;
    } catch (error) {
      if (refusesMethod(error)) {
        reportRefusal(`the node refuses ${method}: ${(error as NodeRpcError).rpcMessage}`);
        throw notReady(`the node refuses ${method}`);
      }
      // The node answered with an error (a tracer timeout, a block it cannot trace yet): wait.
      if (error instanceof NodeRpcError) throw notReady(`${method} answered ${error.rpcCode} ${error.rpcMessage}`);
      throw error;
    }
  }

  /** Internal value frames per transaction, in the block's order: exactly one trace per transaction. */
  async function internalTransfersOf(
    block: EthereumBlock,
    notReady: (reason: string) => BlockNotReadyError,
  ): Promise<InternalValueFrame[][]> {
    const txs = block.transactions;
    try {
      if (traceMode === "debug") {
        const traces = await callTraces<Array<{ txHash?: string; result?: CallTracerFrame; error?: string }> | null>(
          "debug_traceBlockByHash",
          [block.hash, { tracer: "callTracer" }],
          notReady,
        );
        if (!Array.isArray(traces)) throw notReady("debug_traceBlockByHash answered no list");
        if (traces.length !== txs.length) throw notReady(`${traces.length} call traces for ${txs.length} transactions`);
        return traces.map((trace, i) => {
          const tx = txs[i]!;
          if (trace?.error !== undefined) throw notReady(`the trace of ${tx.hash} failed: ${trace.error}`);
          if (trace?.txHash !== undefined && trace.txHash.toLowerCase() !== tx.hash.toLowerCase())
            throw notReady(`call trace ${i} is of ${trace.txHash}, not of ${tx.hash}`);
          if (!trace?.result || trace.result.from?.toLowerCase() !== tx.from.toLowerCase())
            throw notReady(`call trace ${i} does not start at ${tx.hash}'s sender`);
          return valueFramesFromCallTracer(trace.result);
        });
      }
      const traces = await callTraces<ParityTrace[] | null>("trace_block", [block.number], notReady);
      if (!Array.isArray(traces)) throw notReady("trace_block answered no list");
      const byTransaction = new Map<string, ParityTrace[]>();
      for (const trace of traces) {
        if (trace?.blockHash !== undefined && trace.blockHash.toLowerCase() !== block.hash.toLowerCase())
          throw notReady(`trace_block answered for block ${trace.blockHash}`);
        // Block and uncle rewards have no transaction.
        if (typeof trace?.transactionHash !== "string") continue;
        const hash = trace.transactionHash.toLowerCase();
        const list = byTransaction.get(hash);
        if (list) list.push(trace);
        else byTransaction.set(hash, [trace]);
      }
      if (byTransaction.size !== txs.length) throw notReady(`traces of ${byTransaction.size} transactions for ${txs.length}`);
      return txs.map((tx) => {
        const list = byTransaction.get(tx.hash.toLowerCase());
        if (!list) throw notReady(`no trace of transaction ${tx.hash}`);
        return valueFramesFromParityTraces(list);
      });
    } catch (error) {
      if (error instanceof MalformedTraceError) throw notReady(`unreadable call trace: ${error.message}`);
      throw error;
    }
  }

  async function fetchReceipts(block: EthereumBlock, notReady: (reason: string) => BlockNotReadyError): Promise<Array<Receipt | null>> {
    if (blockReceipts) {
      try {
        const receipts = await node.call<Receipt[] | null>("eth_getBlockReceipts", [block.hash]);
        if (receipts === null) throw notReady("eth_getBlockReceipts answered null");
        return receipts;
      } catch (error) {
        if (!lacksBlockReceipts(error)) throw error;
        blockReceipts = false;
      }
    }
    return Promise.all(block.transactions.map((tx) => node.call<Receipt | null>("eth_getTransactionReceipt", [tx.hash])));
  }

  /** The block's receipts (status and logs), one per transaction in the block's order; anything else is a node not ready. */
  async function receiptsOf(block: EthereumBlock, height: number): Promise<Array<Pick<EthereumTransaction, "status" | "logs">>> {
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
      const logs = Array.isArray(receipt.logs) ? receipt.logs.map(leanLog) : receipt.logs;
      return { status: receipt.status, logs };
    });
  }

  return {
    async probeCallTraces() {
      if (traceMode === "off") return;
      try {
        const block = await node.call<{ hash: string; number: string } | null>("eth_getBlockByNumber", ["latest", false]);
        if (!block) return;
        const notReady = (reason: string) => new BlockNotReadyError("ETH", Number(block.number), reason);
        await (traceMode === "debug"
          ? callTraces("debug_traceBlockByHash", [block.hash, { tracer: "callTracer" }], notReady)
          : callTraces("trace_block", [block.number], notReady));
      } catch {
        // Only a refusal matters here, and callTraces has reported it; the follower retries the rest.
      }
    },
    tipHeight: async () => Number(await node.call<string>("eth_blockNumber")),
    async hashAt(height) {
      const block = await node.call<{ hash: string } | null>("eth_getBlockByNumber", [quantity(height), false]);
      return block?.hash ?? null;
    },
    async blockAt(height) {
      const answer = await node.call<EthereumBlock | null>("eth_getBlockByNumber", [quantity(height), true]);
      if (!answer) return null;
      const notReady = (reason: string) => new BlockNotReadyError("ETH", height, reason);
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
        receiptsOf(block, height),
        traceMode === "off" || block.transactions.length === 0 ? undefined : internalTransfersOf(block, notReady),
      ]);
      block.transactions.forEach((tx, i) => {
        tx.status = receipts[i]!.status;
        tx.logs = receipts[i]!.logs;
        tx.internalTransfers = internal?.[i];
      });
      return block;
    },
  };
}
