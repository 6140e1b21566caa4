export { createScannerService, type ScannerService } from "./create-scanner-service.ts";
export { scannerConfigSchema, type ScannerConfig } from "./config.ts";
export { SCANNER_SCHEMA } from "./infra/database-schema.ts";
export { CHAIN_SETTINGS, DEFAULT_CONFIRMATIONS } from "./domain/chain-settings.ts";
// The matching core, measured on its own by bench/scanner and bench/watch.
export { DEFAULT_TRX_POLL_INTERVAL_MS } from "./config.ts";
export { followChain } from "./domain/follow-chain.ts";
export { DEFAULT_POLL_INTERVAL_MS } from "./domain/follow-chain/follow-chain-options.ts";
export { matchBitcoinBlock, type BitcoinBlock } from "./domain/match-bitcoin-block.ts";
export { matchTronBlock, tronBlockHeader, type TronBlockData, type TronTokens } from "./domain/match-tron-block.ts";
export { WatchIndex } from "./domain/watch-index.ts";
export { ethereumBlockHeader, matchEthereumBlock, type EthereumBlock, type EthereumTokens } from "./domain/match-ethereum-block.ts";
export { createEthereumBlockSource } from "./infra/ethereum-block-source.ts";
export type { EthereumTraceMode } from "./infra/ethereum-block-source/ethereum-trace-mode.ts";
export { valueFramesFromCallTracer, type CallTracerFrame } from "./domain/ethereum-call-frames.ts";
