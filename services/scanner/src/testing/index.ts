/** Test helpers of the scanner service (its own tests, the bench, the drills). */
export { fixedWatchFeed } from "./fake-chain.ts";
export { openScannerProjection, openScannerState, type ScannerProjection, type ScannerState } from "./open-scanner-state.ts";
export { WEBHOOK_WATCHED_SQL } from "./webhook-watched-sql.ts";
// The mempool watcher's parts, for `pnpm bench mempool`.
export { watchMempool } from "../domain/mempool/watch-mempool.ts";
export { DEFAULT_MEMPOOL_POLL_MS } from "../domain/mempool/watch-mempool-options.ts";
export type { MempoolStore } from "../domain/mempool/mempool-ports.ts";
export { createSerialLock } from "../domain/serial-lock.ts";
export { createBitcoinMempoolSource } from "../infra/bitcoin-mempool-source.ts";
