/** Test helpers of the scanner service (its own tests, the bench, the drills). */
export { fixedWatchFeed } from "./fake-chain.ts";
export { openScannerProjection, openScannerState, type ScannerProjection, type ScannerState } from "./open-scanner-state.ts";
export { WEBHOOK_WATCHED_SQL } from "./webhook-watched-sql.ts";
