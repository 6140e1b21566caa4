/** What every follower run of the scanner benches shares: a fixed watch list, the state's store and sink, from height 0, silent. */
import { silentLogger } from "@chaingate/testing";
import type { WatchIndex } from "@chaingate/scanner";
import { fixedWatchFeed, type ScannerState } from "@chaingate/scanner/testing";

export function benchFollowerOptions(state: ScannerState, index: WatchIndex, signal: AbortSignal) {
  return {
    index,
    watchFeed: fixedWatchFeed(),
    store: state.store,
    sink: state.sink,
    logger: silentLogger,
    signal,
    startHeight: 0,
  };
}
