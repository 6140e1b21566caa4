/**
 * The scanner against the project's Tron simulator (java-tron HTTP API), real Postgres and NATS:
 * TRX, a TRC-10 token, USDT and a USDT transfer that runs out of energy, each reported with its
 * execution result; then the simulator replaces its newest block and every notified transfer of
 * the dropped block is reported reverted. Internal transfers: TRX and TRC-10 that the simulator's
 * forwarder contract sends on (`internal_transactions`) are notified; a rejected entry and the
 * entries of a failed transaction are not.
 */
import { describe, expect } from "vitest";
import type { DevnodeContext } from "@chaingate/tron-devnode/testing";
import type { ScannerService } from "./create-scanner-service.ts";
import { waitForWebhookStored, type EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
/** The third token of the default TRC20_WHITELIST (18 decimals): shown in balances, so notified too. */
const USDD = "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn";
/** The address of private key 1: watched by no other test here. */
const CAROL = "TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC";
const TRC10_ID = "1000001";

/** The node's `eth_chainId` (java-tron's JSON-RPC), as the chain's CAIP-2 reference. */
async function tronChainIdOf(nodeUrl: string): Promise<string> {
  const response = await fetch(`${nodeUrl}/jsonrpc`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  return ((await response.json()) as { result: string }).result;
}

/** Every test runs against one scanner following the file's simulator, which has processed a first block. */
const it = scannerTest.extend<{ scanner: ScannerService }>({
  scanner: [
    async ({ database, recorder, tronAccounts: node }, use) => {
      const scanner = await startTestScanner(database, recorder, { TRON_NODE_URL: node.devnode.url });
      try {
        const { number } = await node.devnode.produceBlock();
        await recorder.waitFor("the first processed block", () => recorder.blocks.some((block) => block.height === number));
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

describe("Tron on the simulator", () => {
  it("TRX, TRC-10 (currency = token id), USDT and an OUT_OF_ENERGY USDT transfer, each with its execution result; a replaced block reverts them", async ({
    tronAccounts: node,
    database,
    recorder,
  }) => {
    const { devnode, tronWeb, alice, bob } = node;
    await recorder.publishWebhook({ webhook_id: 11, coin: "TRX", addresses: [bob.base58] });
    await waitForWebhookStored(database.connectionString, 11);

    const trx = (await tronWeb.trx.sendTransaction(bob.base58, 1_500_000)).transaction.txID;
    const trc10 = (await tronWeb.trx.sendToken(bob.base58, 2_500_000, TRC10_ID)).transaction.txID;
    const usdt = await tronWeb.contract().at(USDT);
    const usdtTx: string = await usdt.transfer(bob.base58, 2_000_000).send({ feeLimit: 150_000_000 });
    const outOfEnergy: string = await usdt.transfer(bob.base58, 3_000_000).send({ feeLimit: 1_000_000 });
    const { number, blockID } = await devnode.produceBlock();
    await recorder.waitFor("four transfers", () => recorder.transfers.length >= 4);
    await recorder.waitFor("the block", () => recorder.blocks.some((block) => block.height === number));

    const byTx = new Map(recorder.transfers.map((t) => [t.txid, t]));
    expect(recorder.transfers).toHaveLength(4);
    const common = {
      type: "transfer",
      coin: "TRX",
      webhook_id: 11,
      from: alice.base58,
      to: bob.base58,
      watched_address: bob.base58,
      direction: "in",
      // The chain as CAIP-2: what the node's own eth_chainId answers (its genesis block id's last 4 bytes).
      chain: `tron:${await tronChainIdOf(devnode.url)}`,
      confirmations: 1,
      block: expect.objectContaining({ height: number, hash: blockID }),
    };
    expect(byTx.get(trx)).toMatchObject({
      ...common,
      currency: "TRX",
      amount: "1.5",
      raw_amount: "1500000",
      decimals: 6,
      token_contract: null,
      position: null,
      execution_status: "SUCCESS",
    });
    expect(byTx.get(trc10)).toMatchObject({
      ...common,
      currency: TRC10_ID,
      amount: "2.5",
      raw_amount: "2500000",
      decimals: 6,
      token_contract: null,
      execution_status: "SUCCESS",
    });
    expect(byTx.get(usdtTx)).toMatchObject({
      ...common,
      currency: "USDT",
      amount: "2",
      raw_amount: "2000000",
      decimals: 6,
      token_contract: USDT,
      position: 0,
      execution_status: "SUCCESS",
    });
    // Reported, but as the failure it is: never as USDT received.
    expect(byTx.get(outOfEnergy)).toMatchObject({
      ...common,
      currency: "USDT",
      amount: "3",
      token_contract: USDT,
      execution_status: "OUT_OF_ENERGY",
    });

    const reorg = await devnode.reorg(1);
    expect(reorg.dropped).toEqual([{ number, blockID }]);
    await recorder.waitFor("four reverts", () => recorder.transfers.filter((t) => t.type === "reverted").length === 4);
    const reverted = recorder.transfers.filter((t) => t.type === "reverted");
    expect(new Set(reverted.map((t) => t.txid))).toEqual(new Set([trx, trc10, usdtTx, outOfEnergy]));
    for (const revert of reverted) {
      const original = byTx.get(revert.txid)!;
      expect(revert.event_id).not.toBe(original.event_id);
      expect({ ...revert, event_id: "", type: "" }).toEqual({ ...original, event_id: "", type: "" });
    }
    const replacement = reorg.produced[0]!;
    await recorder.waitFor("the replacement block", () => recorder.blocks.some((block) => block.hash === replacement.blockID));
  });

  it("a USDD transfer (a whitelisted token beyond USDT and USDC, 18 decimals) is notified", async ({
    tronAccounts: node,
    database,
    recorder,
  }) => {
    const { devnode, tronWeb, alice } = node;
    await recorder.publishWebhook({ webhook_id: 12, coin: "TRX", addresses: [CAROL] });
    await waitForWebhookStored(database.connectionString, 12);

    const usdd = await tronWeb.contract().at(USDD);
    const usddTx: string = await usdd.transfer(CAROL, "1250000000000000000").send({ feeLimit: 150_000_000 });
    const { number } = await devnode.produceBlock();
    await recorder.waitFor("the block", () => recorder.blocks.some((block) => block.height === number));

    const transfers = recorder.transfers.filter((t) => t.webhook_id === 12);
    expect(transfers).toEqual([
      expect.objectContaining({
        type: "transfer",
        coin: "TRX",
        txid: usddTx,
        from: alice.base58,
        to: CAROL,
        watched_address: CAROL,
        currency: "USDD",
        amount: "1.25",
        raw_amount: "1250000000000000000",
        decimals: 18,
        token_contract: USDD,
        execution_status: "SUCCESS",
      }),
    ]);
  });
});

const freshAddress = async (node: DevnodeContext): Promise<string> => (await node.tronWeb.createAccount()).address.base58;
const forwarder = (node: DevnodeContext) => node.tronWeb.contract().at(node.devnode.genesis.forwarder.base58);
/** Produces the block and waits for it and for `expected` transfers of the webhook; returns them all. */
const mine = async (node: DevnodeContext, recorder: EventRecorder, webhookId: number, expected: number) => {
  const { number, blockID } = await node.devnode.produceBlock();
  const ofBlock = () => recorder.transfers.filter((t) => t.webhook_id === webhookId && t.block.height === number);
  await recorder.waitFor(`${expected} transfers of webhook ${webhookId}`, () => ofBlock().length >= expected);
  await recorder.waitFor("the block", () => recorder.blocks.some((block) => block.height === number));
  return { number, blockID, transfers: ofBlock() };
};

describe("Tron on the simulator, internal transfers: TRX and TRC-10 sent on by a contract (the simulator's forwarder)", () => {
  const FEE_LIMIT = 100_000_000;

  it("TRX forwarded to a watched address is notified as internal (from = the contract); a TRC-10 forward with currency = token id", async ({
    tronAccounts: node,
    database,
    recorder,
  }) => {
    const [dave, erin] = [await freshAddress(node), await freshAddress(node)];
    await recorder.publishWebhook({ webhook_id: 13, coin: "TRX", addresses: [dave, erin] });
    await waitForWebhookStored(database.connectionString, 13);

    const contract = await forwarder(node);
    const trxTx: string = await contract.forward(dave).send({ callValue: 1_250_000, feeLimit: FEE_LIMIT });
    // Two calls: to.transfer(0) (`callValueInfo: [{}]`, nothing to notify), then the token at entry 1.
    const tokenTx: string = await contract.forward(erin).send({ tokenId: TRC10_ID, tokenValue: 3_000_000, feeLimit: FEE_LIMIT });
    const { number, blockID, transfers } = await mine(node, recorder, 13, 2);

    const common = {
      type: "transfer",
      coin: "TRX",
      webhook_id: 13,
      from: node.devnode.genesis.forwarder.base58,
      token_contract: null,
      internal: true,
      trace_address: null,
      execution_status: "SUCCESS",
      confirmations: 1,
      block: expect.objectContaining({ height: number, hash: blockID }),
    };
    expect(transfers).toHaveLength(2);
    expect(transfers.find((t) => t.txid === trxTx)).toMatchObject({
      ...common,
      to: dave,
      watched_address: dave,
      currency: "TRX",
      amount: "1.25",
      raw_amount: "1250000",
      decimals: 6,
      position: 0,
    });
    expect(transfers.find((t) => t.txid === tokenTx)).toMatchObject({
      ...common,
      to: erin,
      watched_address: erin,
      currency: TRC10_ID,
      amount: "3",
      raw_amount: "3000000",
      decimals: 6,
      position: 1,
    });
  });

  it("an entry the callee rejected is not notified (the transaction succeeded; the value stayed with the contract)", async ({
    tronAccounts: node,
    database,
    recorder,
  }) => {
    const forwarderAddress = node.devnode.genesis.forwarder.base58;
    const george = await freshAddress(node);
    // Watching the contract: both entries below have it as their sending side.
    await recorder.publishWebhook({ webhook_id: 14, coin: "TRX", addresses: [forwarderAddress] });
    await waitForWebhookStored(database.connectionString, 14);

    const contract = await forwarder(node);
    // USDT has no payable fallback: tryForward's call fails, its entry is rejected, the transaction succeeds.
    await contract.tryForward(USDT).send({ callValue: 400_000, feeLimit: FEE_LIMIT });
    const sent: string = await contract.tryForward(george).send({ callValue: 500_000, feeLimit: FEE_LIMIT });
    const { transfers } = await mine(node, recorder, 14, 1);

    expect(transfers).toEqual([
      expect.objectContaining({
        type: "transfer",
        txid: sent,
        from: forwarderAddress,
        to: george,
        watched_address: forwarderAddress,
        currency: "TRX",
        raw_amount: "500000",
        position: 0,
        internal: true,
      }),
    ]);
  });

  it("the internal entries of a failed transaction (REVERT, OUT_OF_ENERGY) are not notified", async ({
    tronAccounts: node,
    database,
    recorder,
  }) => {
    const harry = await freshAddress(node);
    await recorder.publishWebhook({ webhook_id: 15, coin: "TRX", addresses: [harry] });
    await waitForWebhookStored(database.connectionString, 15);

    const contract = await forwarder(node);
    // Forwards, then reverts: contractRet REVERT, nothing moved.
    await contract.forwardAndRevert(harry).send({ callValue: 600_000, feeLimit: FEE_LIMIT });
    // The TRX call fits in the energy limit, the token call does not: OUT_OF_ENERGY after an entry to harry.
    await contract.forward(harry).send({ callValue: 700_000, tokenId: TRC10_ID, tokenValue: 5, feeLimit: 4_000_000 });
    const sent: string = await contract.forward(harry).send({ callValue: 900_000, feeLimit: FEE_LIMIT });
    const { transfers } = await mine(node, recorder, 15, 1);

    expect(transfers).toEqual([
      expect.objectContaining({
        type: "transfer",
        txid: sent,
        to: harry,
        currency: "TRX",
        raw_amount: "900000",
        position: 0,
        internal: true,
      }),
    ]);
    expect(await node.tronWeb.trx.getBalance(harry)).toBe(900_000);
  });
});
