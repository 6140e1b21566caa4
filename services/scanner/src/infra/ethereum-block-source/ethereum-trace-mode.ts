/**
 * How the scanner reads internal transfers: geth's callTracer, chaingate's own JS tracer, parity's
 * trace_block, or not at all. The chain registry's list: EVM_CHAINS gives each chain its own.
 */
import { EVM_TRACE_MODES, type EvmTraceMode } from "@chaingate/chain-registry";

export const ETHEREUM_TRACE_MODES = EVM_TRACE_MODES;
export type EthereumTraceMode = EvmTraceMode;
