/**
 * The scanner against a real litecoind regtest node, real Postgres and real NATS: exact amounts of
 * a transaction paying two watched outputs, nothing for blocks before the webhook existed,
 * N-confirmation webhooks, and a reorg (invalidateblock + a longer competing branch).
 */
import type { LitecoindRegtest } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import { waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

const tip = async (node: LitecoindRegtest) => node.rpc<number>("getblockcount");
const processed = (recorder: EventRecorder, height: number) => () => recorder.blocks.some((block) => block.height === height);

/** Every test runs against one scanner following the file's litecoind, 101 blocks up, which it has processed. */
const it = scannerTest.extend<{ scanner: ScannerService }>({
  scanner: [
    async ({ litecoind: node, database, recorder }, use) => {
      await node.mine(101);
      const scanner = await startTestScanner(database, recorder, {
        BTC_RPC_URL: node.rpcUrl,
        BTC_RPC_USER: node.rpcUser,
        BTC_RPC_PASSWORD: node.rpcPassword,
        SCANNER_LEASE_POLL_MS: "200",
        SCANNER_WATCH_GRACE_MS: "1000",
      });
      try {
        await recorder.waitFor("the first processed block", processed(recorder, 101));
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

describe("Bitcoin on litecoind regtest", () => {
  it("a transaction paying two watched outputs is two transfers with exact amounts; earlier blocks are not replayed", async ({
    litecoind: node,
    database,
    recorder,
    scanner,
  }) => {
    const [first, second] = [await node.walletRpc<string>("getnewaddress"), await node.walletRpc<string>("getnewaddress")];
    // Paid before the webhook exists: never notified.
    await node.fundAddress(first, "0.5");
    const [early] = await node.mine(1);
    await recorder.waitFor("the early block", processed(recorder, await tip(node)));

    await recorder.publishWebhook({ webhook_id: 1, coin: "BTC", addresses: [first, second] });
    // The projection is stored by the consumer; the next block processed after that watches it.
    await waitForWebhookStored(database.connectionString, 1);
    const txid = await node.walletRpc<string>("sendmany", ["", { [first]: "0.12345678", [second]: "1.00000001" }]);
    const [hash] = await node.mine(1);
    const height = await tip(node);
    await recorder.waitFor("two transfers", () => recorder.transfers.filter((t) => t.webhook_id === 1).length >= 2);
    await recorder.waitFor("its block", processed(recorder, height));

    const mine = recorder.transfers.filter((t) => t.webhook_id === 1);
    expect(mine.map((t) => [t.to, t.amount, t.raw_amount]).sort()).toEqual(
      [
        [first, "0.12345678", "12345678"],
        [second, "1.00000001", "100000001"],
      ].sort(),
    );
    for (const transfer of mine) {
      expect(transfer).toMatchObject({
        type: "transfer",
        coin: "BTC",
        currency: "BTC",
        txid,
        decimals: 8,
        confirmations: 1,
        execution_status: "SUCCESS",
        block: { height, hash },
      });
      expect(transfer.watched_address).toBe(transfer.to);
      expect(transfer.direction).toBe("in");
    }
    // The chain as BIP-122's CAIP-2 id: the node's genesis hash, first 32 hex digits; blocks carry it too.
    const chain = `bip122:${(await node.rpc<string>("getblockhash", [0])).slice(0, 32)}`;
    expect(new Set([...mine.map((t) => t.chain), recorder.blocks.find((b) => b.height === height)?.chain])).toEqual(new Set([chain]));
    expect(recorder.transfers.some((t) => t.block.hash === early)).toBe(false);
    expect(recorder.blocks.find((b) => b.height === height)).toMatchObject({ hash, matched_count: 2 });
    const scrape = await (await fetch(`${scanner.url}/metrics`)).text();
    expect(Number(/scanner_transfers_published_total\{chain="btc"\} (\d+)/.exec(scrape)?.[1])).toBeGreaterThanOrEqual(2);
    expect(Number(/scanner_blocks_processed_total\{chain="btc"\} (\d+)/.exec(scrape)?.[1])).toBeGreaterThanOrEqual(3);
    // Position and lag: the processed height is the node's tip, nothing behind; node calls by method.
    expect(Number(/scanner_height\{chain="btc"\} (\d+)/.exec(scrape)?.[1])).toBe(height);
    expect(Number(/scanner_node_height\{chain="btc"\} (\d+)/.exec(scrape)?.[1])).toBe(height);
    expect(scrape).toMatch(/scanner_lag_blocks\{chain="btc"\} 0\n/);
    expect(scrape).toMatch(/scanner_leader\{chain="btc"\} 1\n/);
    expect(scrape).toMatch(/scanner_node_call_duration_seconds_count\{chain="btc",method="getblock",outcome="ok"\} [1-9]/);
  });

  it("a webhook asking for 3 confirmations is notified when the block is 3 deep", async ({ litecoind: node, database, recorder }) => {
    const address = await node.walletRpc<string>("getnewaddress");
    await recorder.publishWebhook({ webhook_id: 2, coin: "BTC", addresses: [address], confirmations: 3 });
    await waitForWebhookStored(database.connectionString, 2);
    await node.fundAddress(address, "0.25");
    const [hash] = await node.mine(1);
    const height = await tip(node);
    await node.mine(1);
    await recorder.waitFor("two blocks", processed(recorder, height + 1));
    expect(recorder.transfers.filter((t) => t.webhook_id === 2)).toEqual([]);
    await node.mine(1);
    await recorder.waitFor("the notification at depth 3", () => recorder.transfers.some((t) => t.webhook_id === 2));
    expect(recorder.transfers.filter((t) => t.webhook_id === 2)).toEqual([
      expect.objectContaining({ amount: "0.25", confirmations: 3, block: expect.objectContaining({ height, hash }) }),
    ]);
  });

  it("a reorg reports the notified transfer as reverted, and the transfer again in the new branch", async ({
    litecoind: node,
    database,
    recorder,
    scanner,
  }) => {
    const address = await node.walletRpc<string>("getnewaddress");
    await recorder.publishWebhook({ webhook_id: 3, coin: "BTC", addresses: [address] });
    await waitForWebhookStored(database.connectionString, 3);
    const txid = await node.fundAddress(address, "0.3");
    const [orphaned] = await node.mine(1);
    await recorder.waitFor("the first notification", () => recorder.transfers.some((t) => t.webhook_id === 3));
    const original = recorder.transfers.find((t) => t.webhook_id === 3)!;

    await node.rpc("invalidateblock", [orphaned]);
    // The competing branch is longer; the transaction, back in the mempool, is mined in it again.
    // Mined to another address: the same coinbase in the same second would rebuild the invalid block.
    const [replacement] = await node.mine(2, await node.walletRpc<string>("getnewaddress"));
    await recorder.waitFor("revert and re-notification", () => recorder.transfers.filter((t) => t.webhook_id === 3).length >= 3);
    const events = recorder.transfers.filter((t) => t.webhook_id === 3);
    expect(events.map((t) => [t.type, t.block.hash, t.txid, t.amount])).toEqual([
      ["transfer", orphaned, txid, "0.3"],
      ["reverted", orphaned, txid, "0.3"],
      ["transfer", replacement, txid, "0.3"],
    ]);
    const reverted = events[1]!;
    expect(reverted.event_id).not.toBe(original.event_id);
    expect({ ...reverted, event_id: "", type: "" }).toEqual({ ...original, event_id: "", type: "" });
    const scrape = await (await fetch(`${scanner.url}/metrics`)).text();
    expect(scrape).toMatch(/scanner_reorgs_total\{chain="btc"\} 1\n/);
    expect(scrape).toMatch(/scanner_reorg_depth_blocks_bucket\{le="1",chain="btc"\} 1\n/);
    expect(scrape).toMatch(/scanner_transfers_reverted_total\{chain="btc"\} 1\n/);
  });
});

describe("Bitcoin on litecoind regtest: blocks that leave and come back, a stalled feed, a late address", () => {
  it("invalidateblock H then reconsiderblock H (the node briefly behind): the transfer stands, no revert is published", async ({
    litecoind: node,
    database,
    recorder,
    scanner,
  }) => {
    const address = await node.walletRpc<string>("getnewaddress");
    await recorder.publishWebhook({ webhook_id: 4, coin: "BTC", addresses: [address] });
    await waitForWebhookStored(database.connectionString, 4);
    await node.fundAddress(address, "0.4");
    const [hash] = await node.mine(1);
    await recorder.waitFor("the notification", () => recorder.transfers.some((t) => t.webhook_id === 4));
    await node.rpc("invalidateblock", [hash]);
    // The scanner sees a node without the processed block: it waits, and says so.
    await expect
      .poll(async () => (await fetch(`${scanner.url}/metrics`)).text(), { timeout: 15_000 })
      .toMatch(/scanner_node_behind_blocks\{chain="btc"\} [1-9]/);
    await node.rpc("reconsiderblock", [hash]);
    await node.mine(1);
    await recorder.waitFor("the next block", processed(recorder, await tip(node)));
    expect(recorder.transfers.filter((t) => t.webhook_id === 4).map((t) => [t.type, t.block.hash])).toEqual([["transfer", hash]]);
    expect(await (await fetch(`${scanner.url}/metrics`)).text()).toMatch(/scanner_node_behind_blocks\{chain="btc"\} 0\n/);
  });

  it("a block that leaves the best chain and comes back (A→B→A) is notified again under a new generation: the highest generation's event is the transfer", async ({
    litecoind: node,
    database,
    recorder,
  }) => {
    const address = await node.walletRpc<string>("getnewaddress");
    await recorder.publishWebhook({ webhook_id: 5, coin: "BTC", addresses: [address] });
    await waitForWebhookStored(database.connectionString, 5);
    const txid = await node.fundAddress(address, "0.5");
    const [a] = await node.mine(1);
    await recorder.waitFor("the notification", () => recorder.transfers.some((t) => t.webhook_id === 5));
    // B: a longer branch without block a (the transaction is mined again in it).
    await node.rpc("invalidateblock", [a]);
    const [b] = await node.mine(2, await node.walletRpc<string>("getnewaddress"));
    await recorder.waitFor("B processed", () => recorder.transfers.filter((t) => t.webhook_id === 5).length >= 3);
    // A again: block a is back and its branch becomes the longest.
    await node.rpc("invalidateblock", [b]);
    await node.rpc("reconsiderblock", [a]);
    await node.mine(2, await node.walletRpc<string>("getnewaddress"));
    await recorder.waitFor("A processed again", () => recorder.transfers.filter((t) => t.webhook_id === 5).length >= 5);
    const events = recorder.transfers.filter((t) => t.webhook_id === 5);
    expect(events.map((t) => [t.type, t.block.hash, t.txid, t.generation])).toEqual([
      ["transfer", a, txid, 0],
      ["reverted", a, txid, 0],
      ["transfer", b, txid, 1],
      ["reverted", b, txid, 1],
      ["transfer", a, txid, 2],
    ]);
    expect(new Set(events.map((t) => t.event_id)).size).toBe(5);
  });

  it("blocks wait while the registry's watch feed is stalled (readiness degraded, metric), then are matched with what it held", async ({
    litecoind: node,
    recorder,
    scanner,
  }) => {
    const address = await node.walletRpc<string>("getnewaddress");
    recorder.pauseWatermarks(true);
    // Past the grace (1 s here): the next block is newer than anything the feed vouches for.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await node.fundAddress(address, "0.6");
    const [hash] = await node.mine(1);
    const height = await tip(node);
    await expect
      .poll(async () => (await fetch(`${scanner.url}/readyz`)).json(), { timeout: 15_000 })
      .toMatchObject({
        status: "ready",
        degraded: { watchFeedCurrent: expect.stringMatching(/^blocks wait for the registry's watch feed: BTC \d+ s behind/) },
      });
    expect(await (await fetch(`${scanner.url}/metrics`)).text()).toMatch(/scanner_watch_feed_behind_seconds\{chain="btc"\} [0-9.]*[1-9]/);
    expect(recorder.blocks.some((b) => b.hash === hash)).toBe(false);
    // The registry had watched the address from before the block; its change and watermarks arrive now.
    await recorder.publishWebhook({ webhook_id: 6, coin: "BTC", addresses: [address] });
    recorder.pauseWatermarks(false);
    await recorder.waitFor("the notification", () => recorder.transfers.some((t) => t.webhook_id === 6));
    expect(recorder.transfers.filter((t) => t.webhook_id === 6).map((t) => [t.type, t.block.hash, t.block.height])).toEqual([
      ["transfer", hash, height],
    ]);
    await expect.poll(async () => (await fetch(`${scanner.url}/readyz`)).json(), { timeout: 5_000 }).toEqual({ status: "ready" });
  });

  it("an address that reaches the scanner after the block paying it was matched is notified by a rescan, once", async ({
    litecoind: node,
    recorder,
  }) => {
    const address = await node.walletRpc<string>("getnewaddress");
    const watchedSince = new Date().toISOString();
    await node.fundAddress(address, "0.7");
    const [hash] = await node.mine(1);
    await recorder.waitFor("the block", processed(recorder, await tip(node)));
    // The registry watched it before the block, but the change reaches the scanner only now.
    await recorder.publishWebhook({ webhook_id: 7, coin: "BTC", addresses: [address], since: watchedSince });
    await recorder.waitFor("the rescan's notification", () => recorder.transfers.some((t) => t.webhook_id === 7));
    await node.mine(2);
    await recorder.waitFor("two more blocks", processed(recorder, await tip(node)));
    expect(recorder.transfers.filter((t) => t.webhook_id === 7).map((t) => [t.type, t.block.hash, t.amount])).toEqual([
      ["transfer", hash, "0.7"],
    ]);
  });
});
