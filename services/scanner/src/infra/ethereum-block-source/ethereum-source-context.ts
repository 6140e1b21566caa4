import type { Coin } from "@chaingate/contracts";
import type { NodeClient } from "@chaingate/node-client";
import type { BlockNotReadyError } from "../../domain/scanner-errors.ts";
import type { EthereumTraceMode } from "./ethereum-trace-mode.ts";

/** What the Ethereum block source's operations share: the node, the trace mode, and what was learnt of the node. */
export interface EthereumSourceContext {
  /** The chain's coin, as its errors name it (ETH, or a configured EVM chain's). */
  coin: Coin;
  node: NodeClient;
  traceMode: EthereumTraceMode;
  /** Whether `eth_getBlockReceipts` is tried; false once the node turned out not to have it. */
  blockReceipts: boolean;
  /** The trace method's refusal reported last (null: none, or it traces again). */
  refusal: string | null;
  /** The node refuses the trace method (why), or traces again (null); called on each change. */
  onCallTraces: ((refusal: string | null) => void) | undefined;
}

/** Makes the error for a block the node cannot give whole yet, with why. */
export type NotReady = (reason: string) => BlockNotReadyError;
