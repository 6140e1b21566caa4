/** How the scanner reads internal transfers: geth's callTracer, parity's trace_block, or not at all. */
export const ETHEREUM_TRACE_MODES = ["debug", "parity", "off"] as const;
export type EthereumTraceMode = (typeof ETHEREUM_TRACE_MODES)[number];
