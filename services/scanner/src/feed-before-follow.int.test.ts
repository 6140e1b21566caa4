/**
 * A scanner that starts with an empty database while the registry already holds many webhooks:
 * it loads the whole watch feed into its projection before it matches any block, so the first
 * block it processes already watches the last webhook of the feed (real litecoind, Postgres, NATS).
 */
import { describe, expect, onTestFinished } from "vitest";
import { scannerTest as it } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

/** Enough feed messages (a bucket and a meta each) that loading them takes longer than matching one block. */
const WEBHOOKS_BEFORE = 4_000;
const PUBLISH_CONCURRENCY = 200;

describe("a scanner starting empty", () => {
  // The timeout carries the set-up's budget (litecoind and 101 blocks) beside the test's own 60 s.
  it("loads every webhook of the feed before it processes its first block, and reports not ready meanwhile", async ({
    matureLitecoind: node,
    database,
    recorder,
  }) => {
    const watched = await node.walletRpc<string>("getnewaddress");
    const others = Array.from({ length: WEBHOOKS_BEFORE }, (_, i) => i + 1);
    for (let start = 0; start < others.length; start += PUBLISH_CONCURRENCY) {
      await Promise.all(
        others
          .slice(start, start + PUBLISH_CONCURRENCY)
          .map((id) => recorder.publishWebhook({ webhook_id: id, coin: "BTC", addresses: [`rltc1qother${id}`] })),
      );
    }
    // The webhook of the payment is the feed's last.
    await recorder.publishWebhook({ webhook_id: WEBHOOKS_BEFORE + 1, coin: "BTC", addresses: [watched] });
    const txid = await node.fundAddress(watched, "0.42");
    await node.mine(1);
    const height = await node.rpc<number>("getblockcount");

    // Started while the feed loads; closed after the test, before the file's database goes.
    const scanner = await startTestScanner(database, recorder, {
      BTC_RPC_URL: node.rpcUrl,
      BTC_RPC_USER: node.rpcUser,
      BTC_RPC_PASSWORD: node.rpcPassword,
      BTC_START_HEIGHT: String(height),
    });
    onTestFinished(() => scanner.close());
    // 8,000 feed messages take seconds to store: the first probe comes while they load.
    const readiness = await fetch(`${scanner.url}/readyz`);
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toMatchObject({ failures: { watchFeed: "loading the watch projection from the feed" } });
    await recorder.waitFor("the block of the payment", () => recorder.blocks.some((block) => block.height === height), 60_000);
    expect(recorder.transfers).toEqual([
      expect.objectContaining({ webhook_id: WEBHOOKS_BEFORE + 1, txid, amount: "0.42", block: expect.objectContaining({ height }) }),
    ]);
    expect(recorder.blocks.find((block) => block.height === height)).toMatchObject({ matched_count: 1 });
    expect((await fetch(`${scanner.url}/readyz`)).status).toBe(200);
  }, 180_000);
});
