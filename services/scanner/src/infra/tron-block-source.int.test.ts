/**
 * Issue 16 item 4 against the Tron simulator behind the node fault proxy: a block whose
 * transaction infos the node answers `[]` (a lagging backend) is refused, never read as a block
 * without TRC-20 transfers, and is returned, then notified, once the infos are the block's.
 */
import { createNodeClient, tron, type NodeClient } from "@chaingate/node-client";
import { NO_FAULTS, startNodeFaultProxy, type NodeFaultProxy } from "@chaingate/testing";
import type { DevnodeContext } from "@chaingate/tron-devnode/testing";
import { describe, expect } from "vitest";
import type { ScannerService } from "../create-scanner-service.ts";
import { BlockNotReadyError } from "../domain/scanner-errors.ts";
import { waitForWebhookStored } from "../testing/scanner-harness.ts";
import { scannerTest } from "../testing/scanner-fixtures.ts";
import { startTestScanner } from "../testing/start-test-scanner.ts";
import { createTronBlockSource } from "./tron-block-source.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

/** A USDT transfer to bob, broadcast (not yet in a block). */
async function sendUsdtToBob(node: DevnodeContext, amount: number): Promise<string> {
  const usdt = await node.tronWeb.contract().at(USDT);
  return (await usdt.transfer(node.bob.base58, amount).send({ feeLimit: 150_000_000 })) as string;
}

interface LaggingTronNode {
  /** The file's simulator, with TronWeb signing as alice. */
  node: DevnodeContext;
  proxy: NodeFaultProxy;
  client: NodeClient;
}

const it = scannerTest.extend<{ laggingTronNode: LaggingTronNode; tronNodeWithoutFaults: LaggingTronNode; scanner: ScannerService }>({
  /** The file's simulator behind the node fault proxy, and a client of the proxy. */
  laggingTronNode: [
    async ({ tronAccounts: node }, use) => {
      const proxy = await startNodeFaultProxy({ chain: "tron", upstream: node.devnode.url, seed: 16 });
      const client = createNodeClient({ chain: tron, urls: [proxy.url], coolDownMs: 0 });
      try {
        await use({ node, proxy, client });
      } finally {
        await client.close();
        await proxy.stop();
      }
    },
    { scope: "file" },
  ],
  /** Per test: the proxy without faults. */
  tronNodeWithoutFaults: async ({ laggingTronNode }, use) => {
    laggingTronNode.proxy.setFaults(NO_FAULTS);
    await use(laggingTronNode);
  },
  /** A scanner reading through the proxy, past a first block of the simulator. */
  scanner: [
    async ({ database, recorder, laggingTronNode: { node, proxy } }, use) => {
      const scanner = await startTestScanner(database, recorder, { TRON_NODE_URL: proxy.url });
      try {
        const { number } = await node.devnode.produceBlock();
        await recorder.waitFor("the first block", () => recorder.blocks.some((block) => block.height === number));
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file" },
  ],
});

describe("Tron block source behind a node whose transaction infos lag its blocks", () => {
  it("infos answered []: BlockNotReadyError; the block missing above a lagging tip: null; the block's infos: the block with its USDT log", async ({
    tronNodeWithoutFaults: { node, proxy, client },
  }) => {
    const txid = await sendUsdtToBob(node, 1_000_000);
    const { number } = await node.devnode.produceBlock();
    const source = createTronBlockSource(client);

    proxy.setFaults({ emptyTransactionInfo: 1 });
    const refused = await source.blockAt(number).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BlockNotReadyError);
    expect(refused).toMatchObject({ details: { coin: "TRX", height: number, reason: "0 transaction infos for 1 transactions" } });

    proxy.setFaults({ emptyTransactionInfo: 0, lag: 1 });
    expect(await source.tipHeight()).toBe(number - 1);
    expect(await source.blockAt(number)).toBeNull();

    proxy.setFaults(NO_FAULTS);
    const block = await source.blockAt(number);
    expect(block?.infos).toEqual([
      expect.objectContaining({
        id: txid,
        log: [expect.objectContaining({ topics: expect.arrayContaining([expect.stringMatching(/^ddf252ad/)]) })],
      }),
    ]);
  });
});

describe("the scanner behind a node whose transaction infos lag its blocks", () => {
  it("the block is not processed while its infos are [], then its USDT transfer is notified", async ({
    tronNodeWithoutFaults: { node, proxy },
    database,
    recorder,
    scanner: _scanner,
  }) => {
    await recorder.publishWebhook({ webhook_id: 41, coin: "TRX", addresses: [node.bob.base58] });
    await waitForWebhookStored(database.connectionString, 41);
    proxy.setFaults({ emptyTransactionInfo: 1 });
    proxy.resetCounters();
    const txid = await sendUsdtToBob(node, 2_500_000);
    const { number, blockID } = await node.devnode.produceBlock();
    // The scanner asked for the infos and retried (back-off 0.5 s, then 1 s): nothing was matched meanwhile.
    await recorder.waitFor(
      "two refused reads (or the block taken without infos)",
      () => proxy.counters().emptyTransactionInfo >= 2 || recorder.blocks.some((block) => block.height >= number),
      10_000,
    );
    expect(recorder.transfers).toEqual([]);
    expect(recorder.blocks.some((block) => block.height >= number)).toBe(false);

    proxy.setFaults(NO_FAULTS);
    await recorder.waitFor("the transfer", () => recorder.transfers.length >= 1);
    await recorder.waitFor("the block", () => recorder.blocks.some((block) => block.height === number));
    expect(recorder.transfers).toEqual([
      expect.objectContaining({
        type: "transfer",
        webhook_id: 41,
        txid,
        currency: "USDT",
        raw_amount: "2500000",
        token_contract: USDT,
        execution_status: "SUCCESS",
        block: expect.objectContaining({ height: number, hash: blockID }),
      }),
    ]);
  });
});
