import type { Coin } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import type { ScannerConfig } from "../config.ts";
import type { ScannerMetrics } from "../infra/scanner-metrics.ts";

/** The chains whose node refuses the configured call-trace method (readiness), kept from the block sources' reports. */
export interface CallTraceRefusals {
  /** Chains whose node refuses the configured call-trace method, with why. */
  refused: ReadonlyMap<Coin, string>;
  /** A chain's node refuses the trace method (why), or traces again (null): logged and measured. */
  report(coin: Coin, refusal: string | null): void;
}

export function trackCallTraceRefusals(config: ScannerConfig, logger: Logger, scannerMetrics: ScannerMetrics): CallTraceRefusals {
  const refused = new Map<Coin, string>();
  return {
    refused,
    report(coin, refusal) {
      scannerMetrics.callTracesUnavailable(coin, refusal !== null);
      if (refusal === null) {
        refused.delete(coin);
        logger.info({ coin }, "the node gives call traces again: following on");
        return;
      }
      refused.set(coin, refusal);
      const own = config.EVM_CHAINS.find((chain) => chain.entry.coin === coin)?.traceMode;
      const setting = own === undefined ? "ETH_TRACE_MODE" : `EVM_CHAINS ${coin.toLowerCase()}.trace_mode`;
      logger.error(
        { coin, reason: refusal, setting, mode: own ?? config.ETH_TRACE_MODE },
        `the node refuses call traces: blocks wait (internal transfers would be missed); enable the method on the node, pick another ${setting}, or set it to off to follow without internal transfers`,
      );
    },
  };
}
