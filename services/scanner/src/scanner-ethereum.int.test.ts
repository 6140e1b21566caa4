/**
 * The scanner against Hardhat Network, real Postgres and NATS: a native transfer to a watched
 * address (listed checksummed) with its exact wei amount, nothing for blocks before the webhook,
 * and a reorg by `evm_snapshot`/`evm_revert` plus a longer branch → `reverted`.
 */
import { createTestDatabase, silentLogger, startHardhat, type HardhatNode, type TestDatabase } from "@chaingate/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { scannerConfigSchema } from "./config.ts";
import { createScannerService, type ScannerService } from "./create-scanner-service.ts";
import { startEventRecorder, waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";

let node: HardhatNode;
let database: TestDatabase;
let recorder: EventRecorder;
let scanner: ScannerService;

const tip = async () => Number(await node.rpc<string>("eth_blockNumber"));
const processed = (height: number) => recorder.waitFor(`block ${height}`, () => recorder.blocks.some((block) => block.height === height));
const send = (from: string, to: string, wei: bigint) => node.rpc<string>("eth_sendTransaction", [{ from, to, value: `0x${wei.toString(16)}` }]);

beforeAll(async () => {
  [node, database, recorder] = await Promise.all([startHardhat(), createTestDatabase(), startEventRecorder()]);
  const config = scannerConfigSchema.parse({
    PORT: "0",
    DATABASE_URL: database.connectionString,
    NATS_URL: process.env.NATS_URL,
    NATS_NAMESPACE: recorder.namespace,
    ETH_RPC_URL: node.url,
    SCANNER_POLL_INTERVAL_MS: "100",
  });
  scanner = await createScannerService(config, silentLogger);
  await processed(await tip());
});

afterAll(async () => {
  await scanner?.close();
  await recorder?.close();
  await node?.stop();
  await database?.drop();
});

describe("Ethereum on Hardhat", () => {
  test("a native transfer to a checksummed watched address is notified with its exact amount, from/to lower-cased; earlier blocks are not replayed", async () => {
    const [payer, payee] = [node.accounts[0]!, node.accounts[1]!];
    await send(payer.address, payee.address, 10n ** 18n);
    await processed(await tip());

    await recorder.publishWebhook({ webhook_id: 21, coin: "ETH", addresses: [payee.address] });
    await waitForWebhookStored(database.connectionString, 21);
    const txid = await send(payer.address, payee.address, 5n * 10n ** 17n + 1n);
    const height = await tip();
    await recorder.waitFor("the transfer", () => recorder.transfers.length >= 1);
    await processed(height);
    expect(recorder.transfers).toEqual([
      expect.objectContaining({
        type: "transfer",
        coin: "ETH",
        currency: "ETH",
        webhook_id: 21,
        txid,
        from: payer.address.toLowerCase(),
        to: payee.address.toLowerCase(),
        // As the webhook lists it; matching ignores case.
        watched_address: payee.address,
        amount: "0.500000000000000001",
        raw_amount: "500000000000000001",
        decimals: 18,
        position: null,
        execution_status: "SUCCESS",
        confirmations: 1,
        block: expect.objectContaining({ height }),
      }),
    ]);
  });

  test("a transfer whose block leaves the best chain (evm_revert, then a longer branch) is reported reverted", async () => {
    const [payer, payee] = [node.accounts[0]!, node.accounts[1]!];
    const snapshot = await node.rpc<string>("evm_snapshot");
    const txid = await send(payer.address, payee.address, 7n * 10n ** 18n);
    await recorder.waitFor("the transfer", () => recorder.transfers.some((t) => t.txid === txid));
    await node.rpc("evm_revert", [snapshot]);
    await node.rpc("evm_mine");
    await node.rpc("evm_mine");
    await processed(await tip());
    await recorder.waitFor("the revert", () => recorder.transfers.some((t) => t.txid === txid && t.type === "reverted"));
    const [original, revert] = recorder.transfers.filter((t) => t.txid === txid) as [(typeof recorder.transfers)[number], (typeof recorder.transfers)[number]];
    expect(revert).toEqual({ ...original, type: "reverted", event_id: expect.not.stringMatching(original.event_id) });
  });
});
