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
import type { Coin } from "@chaingate/contracts";
import type { NodeClient } from "@chaingate/node-client";
import type { EthereumBlock } from "../domain/match-ethereum-block.ts";
import type { BlockSource } from "../domain/ports.ts";
import { ethereumBlockAt, quantity } from "./ethereum-block-source/ethereum-block-at.ts";
import type { EthereumSourceContext } from "./ethereum-block-source/ethereum-source-context.ts";
import type { EthereumTraceMode } from "./ethereum-block-source/ethereum-trace-mode.ts";
import { probeCallTraces } from "./ethereum-block-source/probe-call-traces.ts";

export interface EthereumBlockSourceOptions {
  /** The chain's coin, as its errors name it; default ETH. */
  coin?: Coin;
  /** Default "off" (the config's default is "debug"; tests of receipts alone pass nothing). */
  traceMode?: EthereumTraceMode;
  /** The node refuses the trace method (why), or traces again (null); called on each change. */
  onCallTraces?: (refusal: string | null) => void;
}

export interface EthereumBlockSource extends BlockSource<EthereumBlock> {
  /**
   * Traces the node's newest block once, so that a node refusing the trace method is reported at
   * start rather than at the first block with a transaction. Never throws.
   */
  probeCallTraces(): Promise<void>;
}

export function createEthereumBlockSource(node: NodeClient, options: EthereumBlockSourceOptions = {}): EthereumBlockSource {
  const context: EthereumSourceContext = {
    coin: options.coin ?? "ETH",
    node,
    traceMode: options.traceMode ?? "off",
    blockReceipts: true,
    refusal: null,
    onCallTraces: options.onCallTraces,
  };
  return {
    probeCallTraces: () => probeCallTraces(context),
    tipHeight: async () => Number(await node.call<string>("eth_blockNumber")),
    async hashAt(height) {
      const block = await node.call<{ hash: string } | null>("eth_getBlockByNumber", [quantity(height), false]);
      return block?.hash ?? null;
    },
    blockAt: (height) => ethereumBlockAt(context, height),
  };
}
