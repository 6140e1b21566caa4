/**
 * Faults: the scanner process is SIGKILLed at random moments while blocks with watched payments
 * are mined, and started again each time. Every payment is notified; a block re-processed after a
 * kill publishes nothing twice (deterministic Nats-Msg-Ids), so each event id arrives once.
 */
import { fileURLToPath } from "node:url";
import { freePort, spawnService, waitForHttp, type LitecoindRegtest, type SpawnedService } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";

const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = 5;
const MAX_KILL_DELAY_MS = 800;
/** Added to the test's timeout: the file's peers start inside it. */
const PEERS_START_MS = 120_000;

interface ScannerProcesses {
  /** Spawns a scanner process over the file's database, bus and litecoind; every one spawned is stopped after the file. */
  start(): Promise<SpawnedService>;
}

/** The restart helper: scanner processes (the package's start script) over the file's peers. */
const test = scannerTest.extend<{ crashedScanners: ScannerProcesses }>({
  crashedScanners: [
    async ({ matureLitecoind: node, database, recorder }, use) => {
      const spawned: SpawnedService[] = [];
      try {
        await use({ start: () => startScanner(node, database, recorder, spawned) });
      } finally {
        for (const scanner of spawned) await scanner.stop();
      }
    },
    { scope: "file" },
  ],
});

async function startScanner(
  node: LitecoindRegtest,
  database: { connectionString: string },
  recorder: EventRecorder & { natsUrl: string },
  spawned: SpawnedService[],
): Promise<SpawnedService> {
  const port = await freePort();
  const scanner = spawnService(SERVICE_DIR, {
    PORT: String(port),
    LOG_LEVEL: "warn",
    DATABASE_URL: database.connectionString,
    NATS_URL: recorder.natsUrl,
    NATS_NAMESPACE: recorder.namespace,
    BTC_RPC_URL: node.rpcUrl,
    BTC_RPC_USER: node.rpcUser,
    BTC_RPC_PASSWORD: node.rpcPassword,
    SCANNER_POLL_INTERVAL_MS: "50",
    SCANNER_LEASE_POLL_MS: "200",
  });
  spawned.push(scanner);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
  return scanner;
}

describe("scanner killed at random moments", () => {
  test(
    "every payment is notified and every event id arrives once",
    async ({ matureLitecoind: node, database, recorder, crashedScanners }) => {
      let scanner = await crashedScanners.start();
      await recorder.waitFor("the first block", () => recorder.blocks.length > 0);
      const address = await node.walletRpc<string>("getnewaddress");
      await recorder.publishWebhook({ webhook_id: 31, coin: "BTC", addresses: [address] });
      await waitForWebhookStored(database.connectionString, 31);

      const expected: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const amount = `0.0${round}`;
        expected.push(await node.fundAddress(address, amount));
        await node.mine(1);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * MAX_KILL_DELAY_MS));
        scanner.process.kill("SIGKILL");
        await scanner.stop();
        // A block mined while nobody follows is caught up after the restart.
        expected.push(await node.fundAddress(address, `0.1${round}`));
        await node.mine(1);
        scanner = await crashedScanners.start();
      }
      await recorder.waitFor("every payment", () => new Set(recorder.transfers.map((t) => t.txid)).size === expected.length, 60_000);
      expect(new Set(recorder.transfers.map((t) => t.txid))).toEqual(new Set(expected));
      expect(recorder.transfers.every((t) => t.type === "transfer")).toBe(true);
      const ids = recorder.transfers.map((t) => t.event_id);
      expect(ids.length).toBe(new Set(ids).size);
      expect(ids.length).toBe(expected.length);
      // Each round spawns a scanner process; under a loaded CI machine the rounds alone took 47 s. The
      // peers start inside this test too (litecoind and its 101 blocks, the database, the recorder).
    },
    180_000 + PEERS_START_MS,
  );
});
