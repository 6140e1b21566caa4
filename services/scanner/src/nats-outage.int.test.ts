/**
 * Faults: NATS (a private server) stops while watched payments are mined and comes back: the
 * follower retries its publishes and nothing is lost or notified twice.
 */
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import { startEventRecorder, waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

/**
 * A recorder and a scanner on the file's private NATS (the one the test stops), the scanner
 * following the file's litecoind (101 blocks up) and past its first block.
 */
const it = scannerTest.extend<{ natsRecorder: EventRecorder; scanner: ScannerService }>({
  natsRecorder: [
    async ({ privateNats }, use) => {
      const recorder = await startEventRecorder(privateNats.url);
      try {
        await use(recorder);
      } finally {
        await recorder.close();
      }
    },
    { scope: "file" },
  ],
  scanner: [
    async ({ litecoind: node, database, privateNats, natsRecorder: recorder }, use) => {
      await node.mine(101);
      const scanner = await startTestScanner(
        database,
        { namespace: recorder.namespace, natsUrl: privateNats.url },
        { BTC_RPC_URL: node.rpcUrl, BTC_RPC_USER: node.rpcUser, BTC_RPC_PASSWORD: node.rpcPassword },
      );
      try {
        await recorder.waitFor("the first block", () => recorder.blocks.length > 0);
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

describe("NATS outage", () => {
  it("payments mined while NATS is down are notified once it is back, each once", async ({
    litecoind: node,
    privateNats: nats,
    database,
    natsRecorder: recorder,
  }) => {
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
