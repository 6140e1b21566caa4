/**
 * Ethereum block announcements against real Anvil: eth_subscribe("newHeads") over its WebSocket
 * (the HTTP port). With the poll interval at 30 s, only the subscription can explain a block
 * processed within seconds. The subscription's loss is made with a TCP relay the test cuts.
 */
import type { AnvilNode } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import {
  readyzOf,
  scrapeMetrics,
  startScannerUnderTest,
  stopScannerUnderTest,
  waitForFirstBlock,
  waitForWebhookStored,
  waitUntil,
  type EventRecorder,
  type ScannerUnderTest,
} from "./testing/scanner-harness.ts";
import { startTcpRelay } from "./testing/tcp-relay.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

const LONG_POLL_MS = 30_000;
const PUSH_DEADLINE_MS = 5_000;

const tipHash = async (node: AnvilNode) => (await node.rpc<{ hash: string }>("eth_getBlockByNumber", ["latest", false])).hash;
const processed = (recorder: EventRecorder, hash: string) => () => recorder.blocks.some((block) => block.hash === hash);
const channelUp = async (scanner: ScannerService) =>
  /scanner_push_channel_up\{chain="eth",channel="ws [^"]*"\} 1\n/.test(await scrapeMetrics(scanner));

async function mined(node: AnvilNode, under: Pick<ScannerUnderTest, "recorder">) {
  const started = Date.now();
  await node.rpc("evm_mine");
  const hash = await tipHash(node);
  await under.recorder.waitFor(`block ${hash} processed`, processed(under.recorder, hash), PUSH_DEADLINE_MS);
  return { hash, ms: Date.now() - started };
}

/** The file's Anvil, one block up; and a scanner told of its blocks by push (polling every 30 s), subscribed. */
const it = scannerTest.extend<{ ethNode: AnvilNode; pushed: Pick<ScannerUnderTest, "recorder" | "scanner"> }>({
  ethNode: [
    async ({ anvil }, use) => {
      await anvil.rpc("evm_mine");
      await use(anvil);
    },
    { scope: "file" },
  ],
  pushed: [
    async ({ ethNode: node, database, recorder }, use) => {
      const scanner = await startTestScanner(database, recorder, {
        ETH_RPC_URL: node.url,
        ETH_WS_URL: node.url.replace(/^http/, "ws"),
        SCANNER_POLL_INTERVAL_MS: String(LONG_POLL_MS),
        MEMPOOL_POLL_INTERVAL_MS: String(LONG_POLL_MS),
      });
      try {
        await waitForFirstBlock(recorder, () => node.rpc("evm_mine"));
        await waitUntil("the subscription", () => channelUp(scanner));
        await use({ recorder, scanner });
      } finally {
        await scanner.close();
      }
    },
    { scope: "file" },
  ],
});

describe("eth_subscribe newHeads (real Anvil)", () => {
  it("each mined block is processed within seconds though the poll interval is 30 s", async ({ ethNode: node, pushed: under }) => {
    for (let i = 0; i < 3; i++) expect((await mined(node, under)).ms).toBeLessThan(PUSH_DEADLINE_MS);
    expect(await scrapeMetrics(under.scanner)).toMatch(/scanner_block_announcements_total\{chain="eth",channel="ws [^"]*"\} [3-9]/);
  });

  it("newPendingTransactions: a payment is pending within seconds though the pool is diffed every 30 s", async ({
    ethNode: node,
    pushed: under,
    database,
  }) => {
    const [payer, payee] = [node.accounts[3]!.address, node.accounts[4]!.address];
    await under.recorder.publishWebhook({ webhook_id: 90, coin: "ETH", addresses: [payee], pending: true });
    await waitForWebhookStored(database.connectionString, 90);
    // The follower brings the watch index up to date at its next pass: a block's.
    await mined(node, under);
    await node.rpc("evm_setAutomine", [false]);
    try {
      // Two payments: the first wakes the watcher's whole diff, the second is read alone by its hash.
      for (let i = 0; i < 2; i++) {
        const started = Date.now();
        const txid = await node.rpc<string>("eth_sendTransaction", [{ from: payer, to: payee, value: "0x1" }]);
        await under.recorder.waitFor(`pending ${txid}`, () => under.recorder.mempool.some((e) => e.txid === txid), PUSH_DEADLINE_MS);
        expect(Date.now() - started).toBeLessThan(PUSH_DEADLINE_MS);
      }
    } finally {
      await node.rpc("evm_setAutomine", [true]);
    }
  });

  it("a reorg announced by push is handled as a reorg (evm_revert, then a longer branch)", async ({ ethNode: node, pushed: under }) => {
    const snapshot = await node.rpc<string>("evm_snapshot");
    const { hash: orphaned } = await mined(node, under);
    await node.rpc("evm_revert", [snapshot]);
    // Another timestamp: an empty block on the same parent at the same second has the same hash.
    const { timestamp } = await node.rpc<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    await node.rpc("evm_mine", [Number(timestamp) + 100]);
    await node.rpc("evm_mine");
    const replacement = await tipHash(node);
    await under.recorder.waitFor("the longer branch", processed(under.recorder, replacement), PUSH_DEADLINE_MS);
    const orphanedHeight = under.recorder.blocks.find((block) => block.hash === orphaned)!.height;
    const heights = under.recorder.blocks.filter((block) => block.height === orphanedHeight).map((block) => block.hash);
    expect(heights).toHaveLength(2);
    expect(await scrapeMetrics(under.scanner)).toMatch(/scanner_reorgs_total\{chain="eth"\} 1\n/);
  });
});

describe("a lost subscription", () => {
  it("the follower polls meanwhile (readyz degraded, still ready); the socket reconnects and push resumes", async ({ ethNode: node }) => {
    const relay = await startTcpRelay(node.port);
    const pollMs = 2_000;
    const under = await startScannerUnderTest({
      ETH_RPC_URL: node.url,
      ETH_WS_URL: `ws://127.0.0.1:${relay.port}`,
      SCANNER_POLL_INTERVAL_MS: String(pollMs),
    });
    try {
      await waitForFirstBlock(under.recorder, () => node.rpc("evm_mine"));
      await waitUntil("the subscription", () => channelUp(under.scanner));
      await relay.stop();
      await waitUntil(
        "readyz to name the lost channel",
        async () => (await readyzOf(under.scanner)).degraded?.blockAnnouncements !== undefined,
      );
      expect(await readyzOf(under.scanner)).toEqual({
        status: "ready",
        degraded: { blockAnnouncements: `block announcement channels down (polling meanwhile): ETH ws ws://127.0.0.1:${relay.port}` },
      });
      await node.rpc("evm_mine");
      const polled = await tipHash(node);
      await under.recorder.waitFor("the block, by polling", processed(under.recorder, polled), pollMs + PUSH_DEADLINE_MS);

      await relay.start();
      await waitUntil("the subscription again", () => channelUp(under.scanner), 20_000);
      expect(await readyzOf(under.scanner)).toEqual({ status: "ready" });
      await mined(node, under);
    } finally {
      await stopScannerUnderTest(under);
      await relay.stop();
    }
  });
});
