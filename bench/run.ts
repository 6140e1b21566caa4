/**
 * `pnpm bench [name]`: runs the benchmarks (all, or the named one) and prints figures and ratios
 * against baselines measured in the same run. Exits 1 if a target is missed.
 */
import { provideTestInfrastructure } from "@chaingate/testing";
import { benchBlockStreaming } from "./btc/block-streaming.ts";
import { benchEthBlockStreaming } from "./eth/block-streaming.ts";
import { benchGatewayOverhead } from "./gateway/gateway-overhead.ts";
import { benchAddressIssuance } from "./xpub/address-issuance.ts";
import { benchScannerMatching } from "./scanner/scanner-matching.ts";
import { benchMempoolChurn } from "./scanner/mempool-churn.ts";
import { benchTrxBalance } from "./trx/account-balance.ts";
import { benchDeliveryThroughput } from "./delivery/notification-throughput.ts";
import { benchDeliveryClaims } from "./delivery/claim-cost.ts";
import { benchRelayMemory } from "./delivery/relay-memory.ts";
import { benchEventCursor } from "./delivery/event-cursor.ts";
import { benchNotificationLatency } from "./notification/notification-latency.ts";
import { benchPendingLatency } from "./notification/pending-latency.ts";
import { benchWatchFeed } from "./watch/watch-feed.ts";
import { benchRssBounds } from "./memory/rss-bounds.ts";
import { benchJsonRpcBatchRss } from "./memory/jsonrpc-batch-rss.ts";

const BENCHMARKS: Record<string, () => Promise<boolean>> = {
  gateway: benchGatewayOverhead,
  "btc-block": benchBlockStreaming,
  "eth-block": benchEthBlockStreaming,
  xpub: benchAddressIssuance,
  scanner: benchScannerMatching,
  mempool: benchMempoolChurn,
  "trx-balance": benchTrxBalance,
  delivery: benchDeliveryThroughput,
  "delivery-claims": benchDeliveryClaims,
  "event-cursor": benchEventCursor,
  "relay-memory": benchRelayMemory,
  // Blocks (push and poll), then pending events (broadcast → pending, ZMQ sequence and poll); also alone as pending-latency.
  "notification-latency": async () => {
    const blocks = await benchNotificationLatency();
    return (await benchPendingLatency()) && blocks;
  },
  "pending-latency": benchPendingLatency,
  "watch-feed": benchWatchFeed,
  // Both memory bounds: large answers and webhooks, then JSON-RPC batches (also alone as rss-jsonrpc).
  rss: async () => (await benchRssBounds()) && (await benchJsonRpcBatchRss()),
  "rss-jsonrpc": benchJsonRpcBatchRss,
};

const infrastructure = await provideTestInfrastructure();
process.env.DATABASE_URL = infrastructure.databaseUrl;
process.env.NATS_URL = infrastructure.natsUrl;

const selected = process.argv.slice(2);
const names = selected.length ? selected : Object.keys(BENCHMARKS);
let allPassed = true;
try {
  for (const name of names) {
    const bench = BENCHMARKS[name];
    if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHMARKS).join(", ")}`);
    allPassed = (await bench()) && allPassed;
  }
} finally {
  await infrastructure.stop();
}
process.exit(allPassed ? 0 : 1);
