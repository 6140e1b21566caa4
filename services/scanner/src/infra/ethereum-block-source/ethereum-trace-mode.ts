/** How the scanner reads internal transfers: geth's callTracer, chaingate's own JS tracer, parity's trace_block, or not at all. */
export const ETHEREUM_TRACE_MODES = ["debug", "js", "parity", "off"] as const;
export type EthereumTraceMode = (typeof ETHEREUM_TRACE_MODES)[number];
