/**
 * The scanner against Anvil (the call traces are on, as by default), real Postgres and NATS: a native transfer to a watched
 * address (listed checksummed) with its exact wei amount, nothing for blocks before the webhook,
 * and a reorg by `evm_snapshot`/`evm_revert` plus a longer branch → `reverted`.
 */
import type { AnvilNode } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import { waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";
import { TRANSFER_LOG_TOKEN_BYTECODE, transferCallData } from "./testing/transfer-log-token.ts";

const tip = async (node: AnvilNode) => Number(await node.rpc<string>("eth_blockNumber"));
const processed = (recorder: EventRecorder, height: number) =>
  recorder.waitFor(`block ${height}`, () => recorder.blocks.some((block) => block.height === height));
const send = (node: AnvilNode, from: string, to: string, wei: bigint) =>
  node.rpc<string>("eth_sendTransaction", [{ from, to, value: `0x${wei.toString(16)}` }]);

const it = scannerTest.extend<{ token: string; scanner: ScannerService }>({
  /** The USDT-like token, deployed before the scanner starts so it can be whitelisted. */
  token: [
    async ({ anvil: node }, use) => {
      const deployment = await node.rpc<string>("eth_sendTransaction", [
        { from: node.accounts[0]!.address, data: TRANSFER_LOG_TOKEN_BYTECODE },
      ]);
      await use((await node.rpc<{ contractAddress: string }>("eth_getTransactionReceipt", [deployment])).contractAddress);
    },
    { scope: "file" },
  ],
  /** One scanner following the file's Anvil with the token whitelisted, past the tip it started at. */
  scanner: [
    async ({ anvil: node, token, database, recorder }, use) => {
      const scanner = await startTestScanner(database, recorder, {
        ETH_RPC_URL: node.url,
        ETH_TOKENS: JSON.stringify([{ contract: token, symbol: "USDT", decimals: 6 }]),
      });
      try {
        await processed(recorder, await tip(node));
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

describe("Ethereum on Anvil", () => {
  it("a native transfer to a checksummed watched address is notified with its exact amount, from/to lower-cased; earlier blocks are not replayed", async ({
    anvil: node,
    database,
    recorder,
  }) => {
    const [payer, payee] = [node.accounts[0]!, node.accounts[1]!];
    await send(node, payer.address, payee.address, 10n ** 18n);
    await processed(recorder, await tip(node));

    await recorder.publishWebhook({ webhook_id: 21, coin: "ETH", addresses: [payee.address] });
    await waitForWebhookStored(database.connectionString, 21);
    const txid = await send(node, payer.address, payee.address, 5n * 10n ** 17n + 1n);
    const height = await tip(node);
    await recorder.waitFor("the transfer", () => recorder.transfers.length >= 1);
    await processed(recorder, height);
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
        direction: "in",
        // The chain as CAIP-2, from the node's own chain id (Anvil's 31337).
        chain: "eip155:31337",
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

  it("a transfer whose block leaves the best chain (evm_revert, then a longer branch) is reported reverted", async ({
    anvil: node,
    recorder,
  }) => {
    const [payer, payee] = [node.accounts[0]!, node.accounts[1]!];
    const snapshot = await node.rpc<string>("evm_snapshot");
    const txid = await send(node, payer.address, payee.address, 7n * 10n ** 18n);
    await recorder.waitFor("the transfer", () => recorder.transfers.some((t) => t.txid === txid));
    await node.rpc("evm_revert", [snapshot]);
    await node.rpc("evm_mine");
    await node.rpc("evm_mine");
    await processed(recorder, await tip(node));
    await recorder.waitFor("the revert", () => recorder.transfers.some((t) => t.txid === txid && t.type === "reverted"));
    const [original, revert] = recorder.transfers.filter((t) => t.txid === txid) as [
      (typeof recorder.transfers)[number],
      (typeof recorder.transfers)[number],
    ];
    expect(revert).toEqual({ ...original, type: "reverted", event_id: expect.not.stringMatching(original.event_id) });
  });

  it("ERC-20 Transfer logs of the whitelist reach only webhooks that opted in (include_tokens)", async ({
    anvil: node,
    token,
    database,
    recorder,
  }) => {
    const [payer, payee] = [node.accounts[0]!, node.accounts[2]!];
    await recorder.publishWebhook({ webhook_id: 23, coin: "ETH", addresses: [payee.address] });
    await recorder.publishWebhook({ webhook_id: 24, coin: "ETH", addresses: [payee.address], include_tokens: true });
    await waitForWebhookStored(database.connectionString, 24);
    await waitForWebhookStored(database.connectionString, 23);
    const txid = await node.rpc<string>("eth_sendTransaction", [
      { from: payer.address, to: token, data: transferCallData(payee.address, 12_345_678n) },
    ]);
    await processed(recorder, await tip(node));
    await recorder.waitFor("the token transfer", () => recorder.transfers.some((t) => t.txid === txid));
    expect(recorder.transfers.filter((t) => t.txid === txid)).toEqual([
      expect.objectContaining({
        type: "transfer",
        webhook_id: 24,
        coin: "ETH",
        currency: "USDT",
        token_contract: token.toLowerCase(),
        from: payer.address.toLowerCase(),
        to: payee.address.toLowerCase(),
        amount: "12.345678",
        raw_amount: "12345678",
        decimals: 6,
        position: 0,
        execution_status: "SUCCESS",
      }),
    ]);
  });

  it("a failed transaction with value is reported with status FAILED, not as money received", async ({ anvil: node, token, recorder }) => {
    const sender = node.accounts[1]!; // watched by webhook 21 (the sending side matches too)
    // The token reverts a transfer of 0; the ether sent along is not transferred.
    const sent = node.rpc<string>("eth_sendTransaction", [
      { from: sender.address, to: token, value: "0xde0b6b3a7640000", data: transferCallData(sender.address, 0n), gas: "0x30000" },
    ]);
    await sent.catch(() => undefined); // Hardhat answers a reverted transaction with an error, yet mines it
    const block = await node.rpc<{ transactions: string[] }>("eth_getBlockByNumber", ["latest", false]);
    const txid = block.transactions[0]!;
    expect((await node.rpc<{ status: string }>("eth_getTransactionReceipt", [txid])).status).toBe("0x0");
    await recorder.waitFor("the failed transfer", () => recorder.transfers.some((t) => t.txid === txid));
    expect(recorder.transfers.filter((t) => t.txid === txid)).toEqual([
      expect.objectContaining({
        webhook_id: 21,
        currency: "ETH",
        amount: "1",
        from: sender.address.toLowerCase(),
        to: token.toLowerCase(),
        watched_address: sender.address,
        direction: "out",
        execution_status: "FAILED",
      }),
    ]);
  });
});

describe("Ethereum token positions on Anvil", () => {
  it("a token transfer's position is its log's index within its transaction, not within the block: two transfers mined in one block are both 0", async ({
    anvil: node,
    token,
    recorder,
  }) => {
    const [payer, payee] = [node.accounts[0]!, node.accounts[2]!];
    await node.rpc("evm_setAutomine", [false]);
    try {
      const txids = [
        await node.rpc<string>("eth_sendTransaction", [{ from: payer.address, to: token, data: transferCallData(payee.address, 1n) }]),
        await node.rpc<string>("eth_sendTransaction", [{ from: payer.address, to: token, data: transferCallData(payee.address, 2n) }]),
      ];
      await node.rpc("evm_mine");
      const receipts = await Promise.all(
        txids.map((txid) => node.rpc<{ logs: Array<{ logIndex: string }> }>("eth_getTransactionReceipt", [txid])),
      );
      // The block numbers the second transaction's log 1: the scanner must not.
      expect(receipts.map((receipt) => Number(receipt.logs[0]!.logIndex))).toEqual([0, 1]);
      await recorder.waitFor("both token transfers", () => txids.every((txid) => recorder.transfers.some((t) => t.txid === txid)));
      expect(txids.map((txid) => recorder.transfers.find((t) => t.txid === txid && t.webhook_id === 24)?.position)).toEqual([0, 0]);
    } finally {
      await node.rpc("evm_setAutomine", [true]);
    }
  });
});
