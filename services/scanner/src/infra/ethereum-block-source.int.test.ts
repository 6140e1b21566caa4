/**
 * Issue 16 item 3 against Anvil behind the node fault proxy: a block whose receipts the node
 * answers `null` (a backend without them yet) is refused, never read as a block without receipts,
 * and is returned, then notified, with each transaction's status and logs once the receipts are
 * there. The block holds an ERC-20 transfer and a failed transaction that sent ether.
 */
import { createNodeClient, ethereum, type NodeClient } from "@chaingate/node-client";
import { NO_FAULTS, startNodeFaultProxy, type AnvilNode, type NodeFaultProxy } from "@chaingate/testing";
import { beforeEach, describe, expect } from "vitest";
import type { ScannerService } from "../create-scanner-service.ts";
import { BlockNotReadyError } from "../domain/scanner-errors.ts";
import { waitForWebhookStored } from "../testing/scanner-harness.ts";
import { scannerTest } from "../testing/scanner-fixtures.ts";
import { startTestScanner } from "../testing/start-test-scanner.ts";
import { TRANSFER_LOG_TOKEN_BYTECODE, transferCallData } from "../testing/transfer-log-token.ts";
import { createEthereumBlockSource } from "./ethereum-block-source.ts";

const tip = async (node: AnvilNode) => Number(await node.rpc<string>("eth_blockNumber"));

/** Mines one block holding an ERC-20 transfer to `payee` and a failed transaction sending 1 ETH from `payee`'s side. */
async function mineTransferAndFailure(
  node: AnvilNode,
  token: string,
  payer: string,
  payee: string,
): Promise<{ height: number; transfer: string; failed: string }> {
  await node.rpc("evm_setAutomine", [false]);
  try {
    const transfer = await node.rpc<string>("eth_sendTransaction", [
      { from: payer, to: token, data: transferCallData(payee, 4_200_000n), gas: "0x30000" },
    ]);
    // The token reverts a transfer of 0: the ether sent along is not transferred.
    const failed = await node.rpc<string>("eth_sendTransaction", [
      { from: payee, to: token, value: "0xde0b6b3a7640000", data: transferCallData(payer, 0n), gas: "0x30000" },
    ]);
    await node.rpc("evm_mine");
    return { height: await tip(node), transfer, failed };
  } finally {
    await node.rpc("evm_setAutomine", [true]);
  }
}

interface BlockSourceFixtures {
  /** The ERC-20 token, deployed on the file's Anvil. */
  token: string;
  /** The hostile-node proxy in front of the file's Anvil. */
  faultProxy: NodeFaultProxy;
  /** A node client reading through the proxy. */
  client: NodeClient;
  /** A scanner reading through the proxy, past the tip it started at. */
  scanner: ScannerService;
}

const it = scannerTest.extend<BlockSourceFixtures>({
  token: [
    async ({ anvil: node }, use) => {
      const deployment = await node.rpc<string>("eth_sendTransaction", [
        { from: node.accounts[0]!.address, data: TRANSFER_LOG_TOKEN_BYTECODE },
      ]);
      await use((await node.rpc<{ contractAddress: string }>("eth_getTransactionReceipt", [deployment])).contractAddress);
    },
    { scope: "file" },
  ],
  faultProxy: [
    async ({ anvil: node }, use) => {
      const proxy = await startNodeFaultProxy({ chain: "ethereum", upstream: node.url, seed: 16 });
      try {
        await use(proxy);
      } finally {
        await proxy.stop();
      }
    },
    { scope: "file" },
  ],
  client: [
    async ({ faultProxy: proxy }, use) => {
      const client = createNodeClient({ chain: ethereum, urls: [proxy.url], coolDownMs: 0 });
      try {
        await use(client);
      } finally {
        await client.close();
      }
    },
    { scope: "file" },
  ],
  scanner: [
    async ({ anvil: node, token, faultProxy: proxy, database, recorder }, use) => {
      const scanner = await startTestScanner(database, recorder, { ETH_RPC_URL: proxy.url, ETH_TOKENS: `USDT:${token}:6` });
      try {
        const height = await tip(node);
        await recorder.waitFor("the first block", () => recorder.blocks.some((block) => block.height === height));
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file" },
  ],
});

beforeEach<{ faultProxy: NodeFaultProxy }>(({ faultProxy }) => faultProxy.setFaults(NO_FAULTS));

describe("Ethereum block source behind a node that lacks the block's receipts", () => {
  it("receipts answered null: BlockNotReadyError; the block missing above a lagging tip: null; receipts there: the block with statuses and logs", async ({
    anvil: node,
    token,
    faultProxy: proxy,
    client,
  }) => {
    const [payer, payee] = [node.accounts[0]!.address, node.accounts[1]!.address];
    const { height, transfer, failed } = await mineTransferAndFailure(node, token, payer, payee);
    const source = createEthereumBlockSource(client);

    proxy.setFaults({ nullReceipts: 1 });
    const refused = await source.blockAt(height).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BlockNotReadyError);
    expect(refused).toMatchObject({ details: { coin: "ETH", height, reason: "eth_getBlockReceipts answered null" } });

    proxy.setFaults({ nullReceipts: 0, lag: 1 });
    expect(await source.tipHeight()).toBe(height - 1);
    expect(await source.blockAt(height)).toBeNull();

    proxy.setFaults(NO_FAULTS);
    const block = await source.blockAt(height);
    expect(block?.transactions.map(({ hash, status, logs }) => ({ hash, status, logs: logs?.length }))).toEqual([
      { hash: transfer, status: "0x1", logs: 1 },
      { hash: failed, status: "0x0", logs: 0 },
    ]);
  });
});

describe("the scanner behind a node that lacks the block's receipts", () => {
  it("the block is not processed while its receipts are null, then notified with the ERC-20 transfer and the failed transaction as FAILED", async ({
    anvil: node,
    token,
    faultProxy: proxy,
    database,
    recorder,
    scanner: _scanner,
  }) => {
    const [payer, payee] = [node.accounts[2]!.address, node.accounts[3]!.address];
    await recorder.publishWebhook({ webhook_id: 31, coin: "ETH", addresses: [payee], include_tokens: true });
    await waitForWebhookStored(database.connectionString, 31);
    proxy.setFaults({ nullReceipts: 1 });
    proxy.resetCounters();
    const { height, transfer, failed } = await mineTransferAndFailure(node, token, payer, payee);
    // The scanner asked for the receipts and retried (back-off 0.5 s, then 1 s): nothing was matched meanwhile.
    await recorder.waitFor(
      "two refused reads (or the block taken without receipts)",
      () => proxy.counters().nullReceipts >= 2 || recorder.blocks.some((block) => block.height >= height),
      10_000,
    );
    expect(recorder.transfers).toEqual([]);
    expect(recorder.blocks.some((block) => block.height >= height)).toBe(false);

    proxy.setFaults(NO_FAULTS);
    // The failed call is reported twice, both FAILED: the ether it sent and the token transfer it attempted.
    await recorder.waitFor("the three transfers", () => recorder.transfers.length >= 3);
    await recorder.waitFor("the block", () => recorder.blocks.some((block) => block.height === height));
    const seen = recorder.transfers.map((t) => ({
      txid: t.txid,
      type: t.type,
      webhook_id: t.webhook_id,
      currency: t.currency,
      raw_amount: t.raw_amount,
      execution_status: t.execution_status,
      height: t.block.height,
    }));
    const common = { type: "transfer", webhook_id: 31, height };
    expect(seen).toEqual(
      expect.arrayContaining([
        { ...common, txid: transfer, currency: "USDT", raw_amount: "4200000", execution_status: "SUCCESS" },
        { ...common, txid: failed, currency: "ETH", raw_amount: "1000000000000000000", execution_status: "FAILED" },
        { ...common, txid: failed, currency: "USDT", raw_amount: "0", execution_status: "FAILED" },
      ]),
    );
    expect(seen).toHaveLength(3);
    expect(recorder.transfers.find((t) => t.txid === transfer)).toMatchObject({ token_contract: token.toLowerCase(), position: 0 });
  });
});
