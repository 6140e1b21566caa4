/**
 * Faults: NATS (a private server) stops while watched payments are mined and comes back: the
 * follower retries its publishes and nothing is lost or notified twice.
 */
import {
  createTestDatabase,
  silentLogger,
  startLitecoindRegtest,
  startPrivateNats,
  type LitecoindRegtest,
  type PrivateNats,
  type TestDatabase,
} from "@chaingate/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { scannerConfigSchema } from "./config.ts";
import { createScannerService, type ScannerService } from "./create-scanner-service.ts";
import { startEventRecorder, waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";

let node: LitecoindRegtest;
let nats: PrivateNats;
let database: TestDatabase;
let recorder: EventRecorder;
let scanner: ScannerService;

beforeAll(async () => {
  [node, nats, database] = await Promise.all([startLitecoindRegtest(), startPrivateNats(), createTestDatabase()]);
  recorder = await startEventRecorder(nats.url);
  await node.mine(101);
  const config = scannerConfigSchema.parse({
    PORT: "0",
    DATABASE_URL: database.connectionString,
    NATS_URL: nats.url,
    NATS_NAMESPACE: recorder.namespace,
    BTC_RPC_URL: node.rpcUrl,
    BTC_RPC_USER: node.rpcUser,
    BTC_RPC_PASSWORD: node.rpcPassword,
    SCANNER_POLL_INTERVAL_MS: "100",
  });
  scanner = await createScannerService(config, silentLogger);
  await recorder.waitFor("the first block", () => recorder.blocks.length > 0);
});

afterAll(async () => {
  await scanner?.close();
  await recorder?.close();
  await nats?.destroy();
  await node?.stop();
  await database?.drop();
});

describe("NATS outage", () => {
  test("payments mined while NATS is down are notified once it is back, each once", async () => {
    const address = await node.walletRpc<string>("getnewaddress");
    await recorder.publishWebhook({ webhook_id: 41, coin: "BTC", addresses: [address] });
    await waitForWebhookStored(database.connectionString, 41);
    const expected = [await node.fundAddress(address, "0.01")];
    await node.mine(1);
    await recorder.waitFor("the first payment", () => recorder.transfers.length === 1);

    await nats.stop();
    for (const amount of ["0.02", "0.03"]) {
      expected.push(await node.fundAddress(address, amount));
      await node.mine(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await nats.start();
    await recorder.waitFor("every payment", () => new Set(recorder.transfers.map((t) => t.txid)).size === expected.length, 60_000);
    expect(new Set(recorder.transfers.map((t) => t.txid))).toEqual(new Set(expected));
    expect(recorder.transfers.map((t) => t.amount).sort()).toEqual(["0.01", "0.02", "0.03"]);
  });
});
