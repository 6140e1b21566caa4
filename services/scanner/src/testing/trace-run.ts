/**
 * A scanner of one trace mode over the file's Anvil, for the internal-transfer tests: a database and
 * a namespace of its own, the node read through a hostile-node proxy, and what the tests ask of it.
 * Used by a file fixture (`startTraceRun(mode, …, use)`); imports vitest, so not re-exported from
 * `testing/index.ts`.
 */
import {
  createTestDatabase,
  silentLogger,
  startNodeFaultProxy,
  type AnvilNode,
  type DeployedToken,
  type NodeFaultProxy,
  type TestBus,
  type TestDatabase,
  type ValueRouter,
} from "@chaingate/testing";
import { expect } from "vitest";
import { scannerConfigSchema } from "../config.ts";
import { createScannerService, type ScannerService } from "../create-scanner-service.ts";
import { startEventRecorder, waitForWebhookStored, type EventRecorder, type TransferMatched } from "./scanner-harness.ts";

export type TraceMode = "debug" | "js" | "parity";

/** Webhook ids of the file's runs: unique across its modes. */
let webhookIds = 100;

/** The contracts the payments come from, deployed on the file's Anvil. */
export interface PayingContracts {
  token: DeployedToken;
  router: ValueRouter;
}

/** A scanner of one trace mode with its own database and namespace, reading the file's Anvil through a hostile-node proxy. */
export interface TraceRun extends PayingContracts {
  node: AnvilNode;
  proxy: NodeFaultProxy;
  database: TestDatabase;
  recorder: EventRecorder;
  scanner: ScannerService;
  processed(height: number): Promise<void>;
  eventsOf(txid: string): TransferMatched[];
  receiptOf(txid: string): Promise<{ status: string; blockNumber: string }>;
  /** A new webhook watching `addresses` (as listed: checksummed), stored in the scanner's projection. */
  watch(addresses: readonly string[], includeTokens?: boolean): Promise<number>;
  /** The transaction's block is processed; its events are all in (they go out before block.processed). */
  settled(txid: string): Promise<void>;
}

/** Starts the mode's run, hands it to `use`, and closes it after. */
export async function startTraceRun(
  mode: TraceMode,
  node: AnvilNode,
  contracts: PayingContracts,
  bus: TestBus,
  use: (run: TraceRun) => Promise<void>,
) {
  const [database, recorder] = await Promise.all([createTestDatabase(), startEventRecorder(bus.url)]);
  let proxy: NodeFaultProxy | undefined;
  let scanner: ScannerService | undefined;
  try {
    proxy = await startNodeFaultProxy({ chain: "ethereum", upstream: node.url, seed: 26 });
    const config = scannerConfigSchema.parse({
      PORT: "0",
      DATABASE_URL: database.connectionString,
      NATS_URL: bus.url,
      NATS_NAMESPACE: recorder.namespace,
      ETH_RPC_URL: proxy.url,
      ETH_TOKENS: `USDT:${contracts.token.address}:6`,
      SCANNER_POLL_INTERVAL_MS: "100",
      ...(mode === "debug" ? {} : { ETH_TRACE_MODE: mode }),
    });
    expect(config.ETH_TRACE_MODE).toBe(mode);
    scanner = await createScannerService(config, silentLogger);
    const processed = (height: number) =>
      recorder.waitFor(`block ${height}`, () => recorder.blocks.some((block) => block.height === height), 20_000);
    const receiptOf = (txid: string) => node.rpc<{ status: string; blockNumber: string }>("eth_getTransactionReceipt", [txid]);
    await processed(Number(await node.rpc<string>("eth_blockNumber")));
    await use({
      ...contracts,
      node,
      proxy,
      database,
      recorder,
      scanner,
      processed,
      receiptOf,
      eventsOf: (txid) => recorder.transfers.filter((t) => t.txid === txid),
      async watch(addresses, includeTokens = false) {
        const id = ++webhookIds;
        await recorder.publishWebhook({ webhook_id: id, coin: "ETH", addresses: [...addresses], include_tokens: includeTokens });
        await waitForWebhookStored(database.connectionString, id);
        return id;
      },
      settled: async (txid) => processed(Number((await receiptOf(txid)).blockNumber)),
    });
  } finally {
    await scanner?.close();
    await recorder.close();
    await proxy?.stop();
    await database.drop();
  }
}
