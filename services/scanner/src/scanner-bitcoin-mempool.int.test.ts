/**
 * Pending (mempool) events on a real litecoind regtest node (issue #29): a payment seen in the
 * mempool is "pending" before its block and "transfer" after it; a BIP125 replacement (`bumpfee`)
 * is "replaced" naming the replacing transaction; a conflicting spend mined with `generateblock` is
 * "double_spent"; a transaction first seen in a block gets no "pending"; a webhook without
 * `pending` gets none of it; a node restarted with its mempool emptied leaves the transaction
 * "dropped" after MEMPOOL_DROP_AFTER_SECONDS.
 */
import type { LitecoindRegtest } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import { waitForWebhookStored, type EventRecorder, type MempoolMatched } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

const DROP_AFTER_SECONDS = 2;

const it = scannerTest.extend<{ scanner: ScannerService }>({
  scanner: [
    async ({ litecoind: node, database, recorder }, use) => {
      // 20 mature coins: each test can spend its own.
      await node.mine(120);
      const scanner = await startTestScanner(database, recorder, {
        BTC_RPC_URL: node.rpcUrl,
        BTC_RPC_USER: node.rpcUser,
        BTC_RPC_PASSWORD: node.rpcPassword,
        SCANNER_LEASE_POLL_MS: "200",
        SCANNER_WATCH_GRACE_MS: "1000",
        MEMPOOL_POLL_INTERVAL_MS: "100",
        MEMPOOL_DROP_AFTER_SECONDS: String(DROP_AFTER_SECONDS),
      });
      try {
        await recorder.waitFor("the first processed block", () => recorder.blocks.some((block) => block.height === 120));
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

let nextWebhook = 1;

/** A webhook watching new wallet addresses (one with `pending` on, one without, both watching them), stored by the scanner. */
async function watch(node: LitecoindRegtest, recorder: EventRecorder, database: { connectionString: string }, count = 1) {
  const addresses = await Promise.all(Array.from({ length: count }, () => node.walletRpc<string>("getnewaddress")));
  const [pending, plain] = [nextWebhook++, nextWebhook++];
  await recorder.publishWebhook({ webhook_id: pending, coin: "BTC", addresses, pending: true });
  await recorder.publishWebhook({ webhook_id: plain, coin: "BTC", addresses });
  await waitForWebhookStored(database.connectionString, pending);
  await waitForWebhookStored(database.connectionString, plain);
  return { addresses, pending, plain };
}

const mempoolEvents = (recorder: EventRecorder, webhookId: number, txid?: string) =>
  recorder.mempool.filter((e) => e.webhook_id === webhookId && (txid === undefined || e.txid === txid));
const blockTransfers = (recorder: EventRecorder, webhookId: number, txid?: string) =>
  recorder.transfers.filter((t) => t.webhook_id === webhookId && (txid === undefined || t.txid === txid));

async function waitForMempoolEvent(recorder: EventRecorder, webhookId: number, type: MempoolMatched["type"], txid: string) {
  await recorder.waitFor(`${type} of ${txid} for webhook ${webhookId}`, () =>
    mempoolEvents(recorder, webhookId, txid).some((e) => e.type === type),
  );
  return mempoolEvents(recorder, webhookId, txid).find((e) => e.type === type)!;
}

/** The output of `txid` paying `address`. */
async function outputTo(node: LitecoindRegtest, txid: string, address: string): Promise<number> {
  const tx = await node.rpc<{ vout: Array<{ n: number; scriptPubKey: { address?: string; addresses?: string[] } }> }>("getrawtransaction", [
    txid,
    true,
  ]);
  return tx.vout.find((o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) === address)!.n;
}

/** Locks a transaction's outputs in the wallet: later sends do not spend its change, so bumpfee still can. */
async function keepChangeUnspent(node: LitecoindRegtest, txid: string): Promise<void> {
  const tx = await node.rpc<{ vout: Array<{ n: number }> }>("getrawtransaction", [txid, true]);
  await node.walletRpc("lockunspent", [false, tx.vout.map((output) => ({ txid, vout: output.n }))]);
}

/** Calls to another wallet of the node (`/wallet/<name>`). */
function otherWallet(node: LitecoindRegtest, name: string) {
  const authorization = `Basic ${Buffer.from(`${node.rpcUser}:${node.rpcPassword}`).toString("base64")}`;
  return {
    name,
    async rpc<T>(method: string, params: unknown[] = []): Promise<T> {
      const response = await fetch(`${node.rpcUrl}/wallet/${name}`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "1.0", id: method, method, params }),
      });
      const body = (await response.json()) as { result: T; error: { message: string } | null };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result;
    },
  };
}

describe("a pending payment from litecoind's mempool", () => {
  it("a payment is pending while in the mempool, with its replaceability and fee rate, then a transfer once mined", async ({
    litecoind: node,
    database,
    recorder,
  }) => {
    const { addresses, pending, plain } = await watch(node, recorder, database);
    const [address] = addresses as [string];
    // sendtoaddress address amount comment comment_to subtractfee replaceable
    const txid = await node.walletRpc<string>("sendtoaddress", [address, "0.25", "", "", false, true]);
    const seen = await waitForMempoolEvent(recorder, pending, "pending", txid);
    const entry = await node.rpc<{ vsize: number; fees: { base: number } }>("getmempoolentry", [txid]);
    expect(seen).toMatchObject({
      type: "pending",
      coin: "BTC",
      direction: "in",
      to: address,
      watched_address: address,
      amount: "0.25",
      raw_amount: "25000000",
      decimals: 8,
      position: await outputTo(node, txid, address),
      replaceable: true,
      conflicting_txid: null,
      generation: 0,
      chain: `bip122:${(await node.rpc<string>("getblockhash", [0])).slice(0, 32)}`,
    });
    expect(Number(seen.fee_rate)).toBeCloseTo(Math.round(entry.fees.base * 1e8) / entry.vsize, 2);
    expect(Date.parse(seen.seen_at)).toBeLessThanOrEqual(Date.now());
    expect(blockTransfers(recorder, pending, txid)).toEqual([]);

    await node.mine(1);
    await recorder.waitFor("the transfer", () => blockTransfers(recorder, pending, txid).length === 1);
    await recorder.waitFor("the plain webhook's transfer", () => blockTransfers(recorder, plain, txid).length === 1);
    // In order on the one stream: pending, then transfer.
    const order = recorder.all.filter((e) => e.webhook_id === pending && e.txid === txid).map((e) => e.type);
    expect(order).toEqual(["pending", "transfer"]);
    // Mined is an outcome without an event of its own, also after the drop time.
    await new Promise((resolve) => setTimeout(resolve, (DROP_AFTER_SECONDS + 1) * 1000));
    expect(mempoolEvents(recorder, pending, txid).map((e) => e.type)).toEqual(["pending"]);
    // The webhook without `pending` got the transfer only.
    expect(mempoolEvents(recorder, plain)).toEqual([]);
  });

  it("a payment already in the mempool when its address becomes watched is pending too", async ({
    litecoind: node,
    database,
    recorder,
  }) => {
    // The watcher is reading the mempool for this webhook when the payment arrives for an address it does not list yet.
    const { addresses, pending } = await watch(node, recorder, database);
    const address = await node.walletRpc<string>("getnewaddress");
    const txid = await node.walletRpc<string>("sendtoaddress", [address, "0.125"]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await recorder.publishWebhook({ webhook_id: pending, coin: "BTC", addresses: [...addresses, address], pending: true });
    const seen = await waitForMempoolEvent(recorder, pending, "pending", txid);
    expect(seen).toMatchObject({ amount: "0.125", replaceable: false });
    await node.mine(1);
    await recorder.waitFor("its transfer", () => blockTransfers(recorder, pending, txid).length === 1);
  });
});

describe("the outcome of a pending payment", () => {
  it("a replacement by fee (bumpfee) is 'replaced', naming the replacing transaction, which is pending in turn and then mined", async ({
    litecoind: node,
    database,
    recorder,
  }) => {
    const { addresses, pending, plain } = await watch(node, recorder, database);
    const [address] = addresses as [string];
    const original = await node.walletRpc<string>("sendtoaddress", [address, "0.5", "", "", false, true]);
    await waitForMempoolEvent(recorder, pending, "pending", original);
    const { txid: replacement } = await node.walletRpc<{ txid: string }>("bumpfee", [original]);

    const replaced = await waitForMempoolEvent(recorder, pending, "replaced", original);
    expect(replaced).toMatchObject({ amount: "0.5", conflicting_txid: replacement, generation: 0 });
    const second = await waitForMempoolEvent(recorder, pending, "pending", replacement);
    expect(Number(second.fee_rate)).toBeGreaterThan(Number(mempoolEvents(recorder, pending, original)[0]!.fee_rate));

    await node.mine(1);
    await recorder.waitFor("the replacement's transfer", () => blockTransfers(recorder, pending, replacement).length === 1);
    expect(blockTransfers(recorder, pending, original)).toEqual([]);
    const order = recorder.all.filter((e) => e.webhook_id === pending).map((e) => `${e.type}:${e.txid === original ? "A" : "B"}`);
    expect(order).toEqual(["pending:A", "replaced:A", "pending:B", "transfer:B"]);
    expect(mempoolEvents(recorder, plain)).toEqual([]);
  });

  it("an address that stops being watched while its payment is pending gets no outcome", async ({
    litecoind: node,
    database,
    recorder,
  }) => {
    const { addresses, pending } = await watch(node, recorder, database, 2);
    const [paid, kept] = addresses as [string, string];
    const original = await node.walletRpc<string>("sendtoaddress", [paid, "0.2", "", "", false, true]);
    await waitForMempoolEvent(recorder, pending, "pending", original);
    await keepChangeUnspent(node, original);
    // The change drops `paid` and adds `probe`: a pending payment to `probe` shows the scanner applied it.
    const probe = await node.walletRpc<string>("getnewaddress");
    await recorder.publishWebhook({ webhook_id: pending, coin: "BTC", addresses: [kept, probe], pending: true });
    await waitForMempoolEvent(recorder, pending, "pending", await node.walletRpc<string>("sendtoaddress", [probe, "0.01"]));
    const { txid: replacement } = await node.walletRpc<{ txid: string }>("bumpfee", [original]);
    // A payment to the address still watched, after the replacement: once it is pending, the replacement was seen.
    const later = await node.walletRpc<string>("sendtoaddress", [kept, "0.01"]);
    await waitForMempoolEvent(recorder, pending, "pending", later);
    expect(mempoolEvents(recorder, pending, original).map((e) => e.type)).toEqual(["pending"]);
    expect(mempoolEvents(recorder, pending, replacement)).toEqual([]);
    await node.mine(1);
  });

  it("a conflicting spend mined instead is 'double_spent'; a transaction first seen in a block gets no 'pending'", async ({
    litecoind: node,
    database,
    recorder,
  }) => {
    const { addresses, pending } = await watch(node, recorder, database, 2);
    const [paid, other] = addresses as [string, string];
    // One coin of the wallet, spent twice: to the watched address (broadcast), and elsewhere (mined directly).
    const coin = (await node.walletRpc<Array<{ txid: string; vout: number; amount: number }>>("listunspent", [1])).find(
      (u) => u.amount > 1,
    )!;
    const change = await node.walletRpc<string>("getrawchangeaddress");
    const spend = async (to: string) => {
      const outputs = { [to]: "1", [change]: (coin.amount - 1.001).toFixed(8) };
      const raw = await node.walletRpc<string>("createrawtransaction", [[{ txid: coin.txid, vout: coin.vout }], outputs]);
      return (await node.walletRpc<{ hex: string }>("signrawtransactionwithwallet", [raw])).hex;
    };
    const broadcast = await node.rpc<string>("sendrawtransaction", [await spend(paid)]);
    await waitForMempoolEvent(recorder, pending, "pending", broadcast);
    const conflicting = await spend(other);
    const conflictingTxid = (await node.rpc<{ txid: string }>("decoderawtransaction", [conflicting])).txid;
    await node.rpc("generateblock", [await node.walletRpc<string>("getnewaddress"), [conflicting]]);

    const doubleSpent = await waitForMempoolEvent(recorder, pending, "double_spent", broadcast);
    expect(doubleSpent).toMatchObject({ to: paid, conflicting_txid: conflictingTxid });
    // The conflicting transaction paid the other watched address, seen only in its block: a transfer, no pending.
    await recorder.waitFor("the conflicting transfer", () => blockTransfers(recorder, pending, conflictingTxid).length === 1);
    expect(mempoolEvents(recorder, pending, conflictingTxid)).toEqual([]);
    expect(blockTransfers(recorder, pending, broadcast)).toEqual([]);
  });

  it("a transaction that leaves the mempool without a block (the node restarted without its mempool) is 'dropped'", async ({
    litecoind: node,
    database,
    recorder,
  }) => {
    // A second wallet pays, and is unloaded before the restart: no wallet puts the transaction back.
    const other = otherWallet(node, `drop${Date.now()}`);
    await node.rpc("createwallet", [other.name]);
    const [source, address] = [await other.rpc<string>("getnewaddress"), await other.rpc<string>("getnewaddress")];
    await node.fundAddress(source, "1");
    await node.mine(1);
    const pending = nextWebhook++;
    await recorder.publishWebhook({ webhook_id: pending, coin: "BTC", addresses: [address], pending: true });
    await waitForWebhookStored(database.connectionString, pending);
    const txid = await other.rpc<string>("sendtoaddress", [address, "0.75"]);
    await waitForMempoolEvent(recorder, pending, "pending", txid);
    await node.rpc("unloadwallet", [other.name]);

    await node.restart({ extraArgs: ["-persistmempool=0"] });
    expect(await node.rpc<string[]>("getrawmempool")).not.toContain(txid);
    const dropped = await waitForMempoolEvent(recorder, pending, "dropped", txid);
    expect(dropped).toMatchObject({ amount: "0.75", conflicting_txid: null });
    expect(Date.parse(dropped.seen_at)).toBe(Date.parse(mempoolEvents(recorder, pending, txid)[0]!.seen_at));
    expect(blockTransfers(recorder, pending, txid)).toEqual([]);
  });
});
