/**
 * Pending events from Anvil's transaction pool (issue #29; `txpool_content`, automine off): a value
 * transfer is "pending" (replaceable, fee in gwei) before its block and "transfer" after; a
 * whitelisted token's `transfer(…)` call is pending under the key its mined Transfer log has; a
 * transaction replaced in the pool by its sender's nonce is "replaced", naming the replacement; one
 * whose nonce a transaction never seen in the pool used is "replaced" by that one; one dropped from
 * the pool is "dropped" after MEMPOOL_DROP_AFTER_SECONDS. A node without `txpool_content` (Hardhat 2)
 * is read through its `pending` block.
 */
import type { AnvilNode } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import {
  startScannerUnderTest,
  stopScannerUnderTest,
  waitForFirstBlock,
  waitForWebhookStored,
  type EventRecorder,
  type MempoolMatched,
} from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";
import { TRANSFER_LOG_TOKEN_BYTECODE, transferCallData } from "./testing/transfer-log-token.ts";

const DROP_AFTER_SECONDS = 2;
const GWEI = 10n ** 9n;
const hex = (value: bigint | number) => `0x${value.toString(16)}`;

const it = scannerTest.extend<{ token: string; scanner: ScannerService }>({
  token: [
    async ({ anvil: node }, use) => {
      const deployment = await node.rpc<string>("eth_sendTransaction", [
        { from: node.accounts[0]!.address, data: TRANSFER_LOG_TOKEN_BYTECODE },
      ]);
      await use((await node.rpc<{ contractAddress: string }>("eth_getTransactionReceipt", [deployment])).contractAddress);
    },
    { scope: "file" },
  ],
  scanner: [
    async ({ anvil: node, token, database, recorder }, use) => {
      const scanner = await startTestScanner(database, recorder, {
        ETH_RPC_URL: node.url,
        ETH_TOKENS: JSON.stringify([{ contract: token, symbol: "USDT", decimals: 6 }]),
        SCANNER_POLL_INTERVAL_MS: "200",
        MEMPOOL_POLL_INTERVAL_MS: "100",
        MEMPOOL_DROP_AFTER_SECONDS: String(DROP_AFTER_SECONDS),
      });
      // Blocks only when a test mines one: transactions wait in the pool.
      await node.rpc("evm_setAutomine", [false]);
      try {
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

let nextWebhook = 1;
let nextAccount = 1;

/** A webhook with `pending` (and tokens) watching a fresh Anvil account, another without `pending`; each test pays from its own sender. */
async function watchAccount(node: AnvilNode, recorder: EventRecorder, database: { connectionString: string }) {
  const [sender, payee] = [node.accounts[nextAccount]!.address, node.accounts[nextAccount + 1]!.address];
  nextAccount += 2;
  const [pending, plain] = [nextWebhook++, nextWebhook++];
  await recorder.publishWebhook({ webhook_id: pending, coin: "ETH", addresses: [payee], pending: true, include_tokens: true });
  await recorder.publishWebhook({ webhook_id: plain, coin: "ETH", addresses: [payee] });
  await waitForWebhookStored(database.connectionString, pending);
  await waitForWebhookStored(database.connectionString, plain);
  return { sender, payee, pending, plain };
}

const send = (node: AnvilNode, from: string, to: string, options: { value?: bigint; nonce?: number; gasPrice?: bigint; data?: string }) =>
  node.rpc<string>("eth_sendTransaction", [
    {
      from,
      to,
      value: hex(options.value ?? 0n),
      ...(options.nonce === undefined ? {} : { nonce: hex(options.nonce) }),
      ...(options.gasPrice === undefined ? {} : { gasPrice: hex(options.gasPrice) }),
      ...(options.data ? { data: options.data } : {}),
    },
  ]);

const eventsOf = (recorder: EventRecorder, webhookId: number) => recorder.all.filter((e) => e.webhook_id === webhookId);

async function mempoolEvent(recorder: EventRecorder, webhookId: number, type: MempoolMatched["type"], txid: string) {
  await recorder.waitFor(`${type} of ${txid}`, () =>
    recorder.mempool.some((e) => e.webhook_id === webhookId && e.type === type && e.txid === txid),
  );
  return recorder.mempool.find((e) => e.webhook_id === webhookId && e.type === type && e.txid === txid)!;
}

/** A webhook's account paid 0.1 ETH at 2 gwei with its sender's next nonce, announced pending. */
async function pendingAtNextNonce(node: AnvilNode, recorder: EventRecorder, database: { connectionString: string }) {
  const watched = await watchAccount(node, recorder, database);
  const nonce = Number(await node.rpc<string>("eth_getTransactionCount", [watched.sender, "pending"]));
  const original = await send(node, watched.sender, watched.payee, { value: 10n ** 17n, nonce, gasPrice: 2n * GWEI });
  await mempoolEvent(recorder, watched.pending, "pending", original);
  return { ...watched, nonce, original };
}

const minedTransfer = (recorder: EventRecorder, webhookId: number, txid: string) =>
  recorder.waitFor(`the transfer of ${txid}`, () => recorder.transfers.some((t) => t.webhook_id === webhookId && t.txid === txid));

describe("pending transfers from Anvil's pool", () => {
  it("a value transfer is pending (replaceable, fee in gwei) before its block and a transfer after; a webhook without pending gets the transfer only", async ({
    anvil: node,
    database,
    recorder,
  }) => {
    const { sender, payee, pending, plain } = await watchAccount(node, recorder, database);
    const txid = await send(node, sender, payee, { value: 10n ** 18n + 1n, gasPrice: 3n * GWEI });
    expect(await mempoolEvent(recorder, pending, "pending", txid)).toMatchObject({
      coin: "ETH",
      chain: "eip155:31337",
      currency: "ETH",
      from: sender.toLowerCase(),
      to: payee.toLowerCase(),
      direction: "in",
      amount: "1.000000000000000001",
      position: null,
      replaceable: true,
      fee_rate: "3",
      conflicting_txid: null,
    });
    await node.rpc("evm_mine");
    await minedTransfer(recorder, pending, txid);
    await minedTransfer(recorder, plain, txid);
    expect(eventsOf(recorder, pending).map((e) => e.type)).toEqual(["pending", "transfer"]);
    expect(eventsOf(recorder, plain).map((e) => e.type)).toEqual(["transfer"]);
  });

  it("a whitelisted token's transfer(…) call is pending under the key its mined Transfer log has", async ({
    anvil: node,
    token,
    database,
    recorder,
  }) => {
    const { sender, payee, pending } = await watchAccount(node, recorder, database);
    const txid = await send(node, sender, token, { data: transferCallData(payee, 12_345_678n) });
    const seen = await mempoolEvent(recorder, pending, "pending", txid);
    expect(seen).toMatchObject({
      currency: "USDT",
      token_contract: token.toLowerCase(),
      amount: "12.345678",
      position: 0,
      to: payee.toLowerCase(),
    });
    await node.rpc("evm_mine");
    await minedTransfer(recorder, pending, txid);
    const mined = recorder.transfers.find((t) => t.webhook_id === pending && t.txid === txid)!;
    expect([mined.position, mined.currency]).toEqual([seen.position, seen.currency]);
  });
});

describe("the outcome of a pending Ethereum transaction", () => {
  it("replaced in the pool by the same sender and nonce with a higher fee: 'replaced' naming it; the replacement is pending, then mined", async ({
    anvil: node,
    database,
    recorder,
  }) => {
    const { sender, payee, pending, nonce, original } = await pendingAtNextNonce(node, recorder, database);
    const replacement = await send(node, sender, payee, { value: 5n * 10n ** 16n, nonce, gasPrice: 4n * GWEI });

    expect(await mempoolEvent(recorder, pending, "replaced", original)).toMatchObject({ conflicting_txid: replacement, amount: "0.1" });
    expect(await mempoolEvent(recorder, pending, "pending", replacement)).toMatchObject({ amount: "0.05", fee_rate: "4" });
    await node.rpc("evm_mine");
    await minedTransfer(recorder, pending, replacement);
    expect(eventsOf(recorder, pending).map((e) => `${e.type}:${e.txid === original ? "A" : "B"}`)).toEqual([
      "pending:A",
      "replaced:A",
      "pending:B",
      "transfer:B",
    ]);
  });

  it("its nonce used by a transaction mined without passing through the pool: 'replaced' by that one", async ({
    anvil: node,
    database,
    recorder,
  }) => {
    const { sender, pending, nonce, original } = await pendingAtNextNonce(node, recorder, database);
    // Gone from this node's pool (another node's block will use its nonce), then with automine on the
    // same nonce to another address is mined as it is sent: the pool never holds that one.
    await node.rpc("anvil_dropTransaction", [original]);
    await node.rpc("evm_setAutomine", [true]);
    const other = await send(node, sender, node.accounts[0]!.address, { value: 1n, nonce, gasPrice: 5n * GWEI }).finally(() =>
      node.rpc("evm_setAutomine", [false]),
    );
    expect(await mempoolEvent(recorder, pending, "replaced", original)).toMatchObject({ conflicting_txid: other });
    expect(recorder.transfers.filter((t) => t.txid === original)).toEqual([]);
  });

  it("dropped from the pool without its nonce being used: 'dropped' after the drop time", async ({ anvil: node, database, recorder }) => {
    const { sender, payee, pending } = await watchAccount(node, recorder, database);
    const txid = await send(node, sender, payee, { value: 10n ** 16n, gasPrice: 2n * GWEI });
    const seen = await mempoolEvent(recorder, pending, "pending", txid);
    await node.rpc("anvil_dropTransaction", [txid]);
    const dropped = await mempoolEvent(recorder, pending, "dropped", txid);
    expect(dropped).toMatchObject({ conflicting_txid: null, seen_at: seen.seen_at });
    expect(Date.now() - Date.parse(seen.seen_at)).toBeGreaterThanOrEqual(DROP_AFTER_SECONDS * 1000);
  });
});

describe("a node without txpool_content", () => {
  it("Hardhat 2 refuses it: the pending block's transactions are read instead, pending then transfer", async ({ hardhat: node }) => {
    const under = await startScannerUnderTest({
      ETH_RPC_URL: node.url,
      // Hardhat 2 has no call tracing either.
      ETH_TRACE_MODE: "off",
      SCANNER_POLL_INTERVAL_MS: "200",
      MEMPOOL_POLL_INTERVAL_MS: "100",
    });
    const [payer, payee] = [node.accounts[1]!.address, node.accounts[2]!.address];
    try {
      await waitForFirstBlock(under.recorder, () => node.rpc("evm_mine"));
      await under.recorder.publishWebhook({ webhook_id: 1, coin: "ETH", addresses: [payee], pending: true });
      await waitForWebhookStored(under.database.connectionString, 1);
      await node.rpc("evm_setAutomine", [false]);
      const txid = await node.rpc<string>("eth_sendTransaction", [{ from: payer, to: payee, value: hex(10n ** 15n) }]);
      expect(await mempoolEvent(under.recorder, 1, "pending", txid)).toMatchObject({ amount: "0.001", replaceable: true });
      await node.rpc("evm_mine");
      await minedTransfer(under.recorder, 1, txid);
      expect(eventsOf(under.recorder, 1).map((e) => e.type)).toEqual(["pending", "transfer"]);
    } finally {
      await node.rpc("evm_setAutomine", [true]);
      await stopScannerUnderTest(under);
    }
  });
});
