/** TronWeb v6, unchanged, driving the devnode end to end (blocks only on demand, so nothing waits on a timer). */
import { TronWeb, utils as tronWebUtils } from "tronweb";
import type { Types } from "tronweb";
import { describe, expect } from "vitest";
import { DEFAULT_ENERGY_COSTS, energyPenalty } from "./energy-costs.ts";
import { devnodeTest } from "./test-devnode.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDD = "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn";
const TRC10_ID = "1000001";
/** A TRX transfer's bandwidth when free bandwidth covers it: serialised signed transaction + 64. */
const FRESH_ACCOUNT_FEE = 100_000 + 1_000_000;
const COSTS = DEFAULT_ENERGY_COSTS;

/** Energy a call needs with the default costs: its base plus the dynamic-energy penalty. */
function withPenalty(base: number): number {
  return base + energyPenalty(base, COSTS);
}

function freshAddress(): { base58: string; hex: string; privateKey: string } {
  const account = tronWebUtils.accounts.generateAccount();
  return { base58: account.address.base58, hex: account.address.hex.toLowerCase(), privateKey: account.privateKey };
}

function utf8(hex: string): string {
  return Buffer.from(hex, "hex").toString("utf8");
}

const it = devnodeTest;

describe("TronWeb against the devnode: connection, balances and TRX transfers", () => {
  it("isConnected: full node, solidity node and event server all answer", async ({ tronWeb }) => {
    expect(await tronWeb.isConnected()).toEqual({ fullNode: true, solidityNode: true, eventServer: true });
  });

  it("getBalance returns the genesis balance, and 0 for an unknown account", async ({ tronWeb, alice }) => {
    expect(await tronWeb.trx.getBalance(alice.base58)).toBe(alice.balanceSun);
    expect(await tronWeb.trx.getBalance(freshAddress().base58)).toBe(0);
  });

  it("sendTrx to a new account: accepted, mined, balance moved, new-account fees charged", async ({ devnode, tronWeb, alice }) => {
    const to = freshAddress();
    const before = await tronWeb.trx.getBalance(alice.base58);
    const unsigned = await tronWeb.transactionBuilder.sendTrx(to.base58, 2_500_000, alice.base58);
    const signed = await tronWeb.trx.sign(unsigned, alice.privateKey);
    const broadcast = await tronWeb.trx.sendRawTransaction(signed);
    expect(broadcast).toMatchObject({ result: true, txid: signed.txID });

    // Not confirmed yet: the solidity view (getBalance) still shows the old state, the full node the pending one.
    expect(await tronWeb.trx.getBalance(to.base58)).toBe(0);
    expect(await tronWeb.trx.getUnconfirmedBalance(to.base58)).toBe(2_500_000);
    await expect(tronWeb.trx.getTransaction(signed.txID)).rejects.toThrow("Transaction not found");

    await devnode.produceBlock();
    expect(await tronWeb.trx.getBalance(to.base58)).toBe(2_500_000);
    expect(await tronWeb.trx.getBalance(alice.base58)).toBe(before - 2_500_000 - FRESH_ACCOUNT_FEE);

    const onChain = await tronWeb.trx.getTransaction(signed.txID);
    expect(onChain.ret?.[0]?.contractRet).toBe("SUCCESS");
    expect(onChain.raw_data_hex).toBe(signed.raw_data_hex);
    const info = await tronWeb.trx.getTransactionInfo(signed.txID);
    expect(info).toMatchObject({ id: signed.txID, fee: FRESH_ACCOUNT_FEE, contractResult: [""], receipt: { net_fee: 100_000 } });
    expect(info).not.toHaveProperty("result");
  });

  it("trx.sendTransaction between existing accounts uses free bandwidth (no fee)", async ({ devnode, tronWeb, bob }) => {
    const result = await tronWeb.trx.sendTransaction(bob.base58, 1_000);
    expect(result.result).toBe(true);
    await devnode.produceBlock();
    const info = await tronWeb.trx.getTransactionInfo(result.transaction.txID);
    expect(info).not.toHaveProperty("fee");
    expect(info.receipt.net_usage).toBeGreaterThan(200);
    expect(info.receipt.net_usage).toBeLessThan(300);
  });
});

describe("TronWeb against the devnode: TRC-10 and TRC-20 transfers", () => {
  it("sendToken (TRC-10) moves the token and shows in assetV2", async ({ devnode, tronWeb }) => {
    const to = freshAddress();
    const result = await tronWeb.trx.sendToken(to.base58, 1_234, TRC10_ID);
    expect(result.result).toBe(true);
    await devnode.produceBlock();
    const account = await tronWeb.trx.getAccount(to.base58);
    expect(account.assetV2).toEqual([{ key: TRC10_ID, value: 1_234 }]);
    const onChain = await tronWeb.trx.getTransaction(result.transaction.txID);
    expect(onChain.raw_data.contract[0]?.type).toBe("TransferAssetContract");
    expect(onChain.ret?.[0]?.contractRet).toBe("SUCCESS");
    expect(await tronWeb.trx.getTransactionInfo(result.transaction.txID)).toMatchObject({
      fee: FRESH_ACCOUNT_FEE,
      receipt: { net_fee: 100_000 },
    });
    expect((await tronWeb.trx.getTokenByID(TRC10_ID)).precision).toBe(6);
  });

  it("TRC-20: contract().at(USDT) reads decimals/symbol/balanceOf and transfer().send() moves tokens with a Transfer log", async ({
    devnode,
    tronWeb,
    alice,
  }) => {
    const usdt = await tronWeb.contract().at(USDT);
    expect(Number(await usdt.decimals().call())).toBe(6);
    expect(await usdt.symbol().call()).toBe("USDT");
    const usdd = await tronWeb.contract().at(USDD);
    expect(Number(await usdd.decimals().call())).toBe(18);

    const to = freshAddress();
    const txid: string = await usdt.transfer(to.base58, 1_000_000).send({ feeLimit: 100_000_000 });
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    await devnode.produceBlock();

    expect((await usdt.balanceOf(to.base58).call()).toString()).toBe("1000000");
    const onChain = await tronWeb.trx.getTransaction(txid);
    expect(onChain.ret?.[0]?.contractRet).toBe("SUCCESS");
    const info = await tronWeb.trx.getTransactionInfo(txid);
    expect(info.receipt.result).toBe("SUCCESS");
    expect(info.contract_address).toBe("41a614f803b6fd780986a42c78ec9c7f77e6ded13c");
    expect(info.fee).toBe(info.receipt.energy_fee! + (info.receipt.net_fee ?? 0));
    // A new holder: the fresh storage slot costs more.
    expect(info.receipt.energy_usage_total).toBe(withPenalty(COSTS.transfer + COSTS.newHolderExtra));
    expect(info.receipt.energy_penalty_total).toBe(energyPenalty(COSTS.transfer + COSTS.newHolderExtra, COSTS));
    expect(info.log).toEqual([
      {
        address: "a614f803b6fd780986a42c78ec9c7f77e6ded13c",
        topics: [
          "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
          "000000000000000000000000" + alice.hex.slice(2),
          "000000000000000000000000" + to.hex.slice(2),
        ],
        data: "00000000000000000000000000000000000000000000000000000000000f4240",
      },
    ]);
  });

  it("TRC-20 with 18 decimals: amounts beyond 2^53 move exactly", async ({ devnode, tronWeb }) => {
    const usdd = await tronWeb.contract().at(USDD);
    const to = freshAddress();
    const amount = "123456789012345678901"; // 123.456… USDD
    const txid: string = await usdd.transfer(to.base58, amount).send({ feeLimit: 100_000_000 });
    await devnode.produceBlock();
    expect((await usdd.balanceOf(to.base58).call()).toString()).toBe(amount);
    const info = await tronWeb.trx.getTransactionInfo(txid);
    expect(BigInt("0x" + info.log?.[0]?.data)).toBe(BigInt(amount));
  });
});

describe("TronWeb against the devnode: blocks, and transfers that fail on chain", () => {
  it("block reads: getCurrentBlock, getBlockByHash, getBlockRange", async ({ devnode, tronWeb }) => {
    const { number, blockID } = await devnode.produceBlock();
    const current = await tronWeb.trx.getCurrentBlock();
    expect(current.blockID).toBe(blockID);
    expect((await tronWeb.trx.getBlockByHash(blockID)).block_header.raw_data.number).toBe(number);
    const range = await tronWeb.trx.getBlockRange(number - 2, number);
    expect(range.map((block) => block.block_header.raw_data.number)).toEqual([number - 2, number - 1, number]);
  });

  it("too low fee_limit: accepted at broadcast, OUT_OF_ENERGY on chain, fee burned, no logs, no transfer", async ({
    devnode,
    tronWeb,
    alice,
  }) => {
    const usdt = await tronWeb.contract().at(USDT);
    const to = freshAddress();
    const before = await tronWeb.trx.getBalance(alice.base58);
    const feeLimit = 1_000_000; // 10 000 energy at 100 sun: less than a transfer needs
    const txid: string = await usdt.transfer(to.base58, 5).send({ feeLimit });
    await devnode.produceBlock();

    const onChain = await tronWeb.trx.getTransaction(txid);
    expect(onChain.ret?.[0]?.contractRet).toBe("OUT_OF_ENERGY");
    const info = await tronWeb.trx.getTransactionInfo(txid);
    expect(info.result).toBe("FAILED");
    expect(info.receipt.result).toBe("OUT_OF_ENERGY");
    expect(info.receipt.energy_fee).toBe(feeLimit);
    expect(utf8(info.resMessage ?? "")).toContain("Not enough energy");
    expect(info).not.toHaveProperty("log");
    expect(info.fee).toBe(before - (await tronWeb.trx.getBalance(alice.base58)));
    expect((await usdt.balanceOf(to.base58).call()).toString()).toBe("0");
  });

  it("a transfer of more tokens than held reverts on chain (REVERT), not at broadcast", async ({ devnode, tronWeb, bob }) => {
    const poor = freshAddress();
    await tronWeb.trx.sendTransaction(poor.base58, 50_000_000);
    await devnode.produceBlock();
    const poorWeb = new TronWeb({ fullHost: devnode.url, privateKey: poor.privateKey });
    const usdt = await poorWeb.contract().at(USDT);
    const txid: string = await usdt.transfer(bob.base58, 1).send({ feeLimit: 100_000_000 });
    await devnode.produceBlock();
    const info = await poorWeb.trx.getTransactionInfo(txid);
    expect(info.receipt.result).toBe("REVERT");
    expect(info.result).toBe("FAILED");
    expect(info).not.toHaveProperty("log");
  });
});

describe("TronWeb against the devnode: signing, broadcast and contract reads", () => {
  it("sign locally + sendRawTransaction, then getTransaction and getTransactionInfo", async ({ devnode, tronWeb, alice, bob }) => {
    const unsigned = await tronWeb.transactionBuilder.sendTrx(bob.base58, 7_000, alice.base58);
    const signed = await tronWeb.trx.sign(unsigned, alice.privateKey);
    expect(tronWeb.trx.ecRecover(signed)).toBe(alice.base58);
    const broadcast = await tronWeb.trx.sendRawTransaction(signed);
    expect(broadcast.result).toBe(true);
    const block = await devnode.produceBlock();
    const onChain = await tronWeb.trx.getTransaction(signed.txID);
    expect(onChain).toMatchObject({
      txID: signed.txID,
      signature: signed.signature.map((s: string) => s.toLowerCase()),
      ret: [{ contractRet: "SUCCESS" }],
    });
    const info = await tronWeb.trx.getTransactionInfo(signed.txID);
    expect(info.blockNumber).toBe(block.number);
    const blockJson = await tronWeb.trx.getBlockByNumber(block.number);
    expect(blockJson.blockID).toBe(block.blockID);
    expect(blockJson.transactions?.map((tx: { txID: string }) => tx.txID)).toContain(signed.txID);
  });

  it("a bad signature is refused with SIGERROR (hex message)", async ({ tronWeb, alice, bob }) => {
    const unsigned = await tronWeb.transactionBuilder.sendTrx(bob.base58, 8_000, alice.base58);
    const signed = await tronWeb.trx.sign(unsigned, alice.privateKey);
    // Tamper with the signed amount: the node re-encodes raw_data, so the signature now recovers another address.
    const tampered = JSON.parse(JSON.stringify(signed));
    tampered.raw_data.contract[0].parameter.value.amount = 8_000_000;
    const result = await tronWeb.trx.sendRawTransaction(tampered);
    expect(result.code).toBe("SIGERROR");
    expect(result).not.toHaveProperty("result");
    expect(utf8(result.message ?? "")).toMatch(
      /^Validate signature error: [0-9a-f]{130} is signed by T\w+ but it is not contained of permission\.$/,
    );
  });

  it("a replay is refused as a duplicate, before and after the block", async ({ devnode, tronWeb, alice, bob }) => {
    const unsigned = await tronWeb.transactionBuilder.sendTrx(bob.base58, 9_000, alice.base58);
    const signed = await tronWeb.trx.sign(unsigned, alice.privateKey);
    expect((await tronWeb.trx.sendRawTransaction(signed)).result).toBe(true);
    const again = await tronWeb.trx.sendRawTransaction(signed);
    expect(again.code).toBe("DUP_TRANSACTION_ERROR");
    expect(utf8(again.message ?? "")).toBe("Dup transaction.");
    await devnode.produceBlock();
    expect((await tronWeb.trx.sendRawTransaction(signed)).code).toBe("DUP_TRANSACTION_ERROR");
  });

  it("node-built transactions (createtransaction, transferasset) pass TronWeb's byte-for-byte txCheck and can be signed and broadcast", async ({
    devnode,
    tronWeb,
    alice,
    bob,
  }) => {
    const created = await tronWeb.fullNode.request<Record<string, unknown>>(
      "wallet/createtransaction",
      { owner_address: alice.hex, to_address: bob.hex, amount: 3_000, extra_data: "6d656d6f" },
      "post",
    );
    expect(created).toMatchObject({ visible: false, raw_data: { data: "6d656d6f" } });
    expect(tronWebUtils.transaction.txCheck(created)).toBe(true);
    const signed = await tronWeb.trx.sign(created as unknown as Types.Transaction, alice.privateKey);
    expect((await tronWeb.trx.sendRawTransaction(signed)).result).toBe(true);

    const asset = await tronWeb.fullNode.request<Record<string, unknown>>(
      "wallet/transferasset",
      { owner_address: alice.base58, to_address: bob.base58, asset_name: TRC10_ID, amount: 5, visible: true },
      "post",
    );
    expect(asset).toMatchObject({ visible: true });
    expect(tronWebUtils.transaction.txCheck(asset)).toBe(true);
    const signedAsset = await tronWeb.trx.sign(asset as unknown as Types.Transaction, alice.privateKey);
    expect((await tronWeb.trx.sendRawTransaction(signedAsset)).result).toBe(true);
    await devnode.produceBlock();
    expect((await tronWeb.trx.getTransaction(signedAsset.txID)).ret?.[0]?.contractRet).toBe("SUCCESS");
  });

  it("contract().at() of an address without a contract fails like on a real node", async ({ tronWeb }) => {
    await expect(tronWeb.contract().at(freshAddress().base58)).rejects.toThrow();
  });

  it("estimateEnergy reports the energy a transfer needs", async ({ tronWeb, alice, bob }) => {
    const parameter = [
      { type: "address", value: bob.base58 },
      { type: "uint256", value: 1 },
    ];
    const estimate = await tronWeb.transactionBuilder.estimateEnergy(USDT, "transfer(address,uint256)", {}, parameter, alice.hex);
    expect(estimate).toMatchObject({ result: { result: true }, energy_required: withPenalty(COSTS.transfer) });
  });
});
