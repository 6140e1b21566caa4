/**
 * java-tron parity (see java-tron-parity.int.test.ts): the internal transactions of the devnode's forwarder
 * contract, the TRX and TRC-10 a contract sends on. Each test names the java-tron code it mirrors.
 */
import { describe, expect } from "vitest";
import { devnodeTest, postJson } from "./test-devnode.ts";
import type { DevnodeContext } from "./test-devnode.ts";
import type { JsonObject } from "./transaction-json.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDD = "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const FEE_LIMIT = 150_000_000;
const CALL_NOTE = Buffer.from("call").toString("hex");
const TRC10_ID = "1000001";
const hash = expect.stringMatching(/^[0-9a-f]{64}$/);

type Info = JsonObject & { internal_transactions?: JsonObject[] };

const it = devnodeTest;

/** The reads and calls these tests make on the file's devnode. */
function forwarderCalls({ devnode, tronWeb }: Pick<DevnodeContext, "devnode" | "tronWeb">) {
  const hexOf = (base58: string): string => tronWeb.address.toHex(base58).toLowerCase();
  const freshAddress = async (): Promise<string> => (await tronWeb.createAccount()).address.base58;
  const account = (address: string) => postJson(devnode, "/wallet/getaccount", { address: hexOf(address) });
  const forwarder = () => tronWeb.contract().at(devnode.genesis.forwarder.base58);
  const mined = async (txid: string): Promise<{ info: Info; contractRet: string | undefined }> => {
    await devnode.produceBlock();
    const transaction = await postJson<{ ret?: { contractRet?: string }[] }>(devnode, "/wallet/gettransactionbyid", { value: txid });
    return {
      info: await postJson<Info>(devnode, "/wallet/gettransactioninfobyid", { value: txid }),
      contractRet: transaction.ret?.[0]?.contractRet,
    };
  };
  return { hexOf, freshAddress, account, forwarder, mined };
}

describe("internal transactions of the forwarder (Program.callToAddress, VMActuator, TransactionUtil.buildInternalTransaction)", () => {
  it("a callee that fails inside a successful transaction: its entry has rejected:true and the value stays with the calling contract (internalTx.reject())", async ({
    devnode,
    tronWeb,
  }) => {
    const { account, forwarder, mined } = forwarderCalls({ devnode, tronWeb });
    const forwarderHex = devnode.genesis.forwarder.hex;
    const before = Number((await account(devnode.genesis.forwarder.base58)).balance ?? 0);
    // tryForward makes a low-level call: USDT has no payable fallback, so the call fails and returns false.
    const txid: string = await (await forwarder()).tryForward(USDT).send({ callValue: 700_000, feeLimit: FEE_LIMIT });
    const { info, contractRet } = await mined(txid);
    expect(contractRet).toBe("SUCCESS");
    expect(info).toMatchObject({ receipt: { result: "SUCCESS" }, contractResult: ["0".repeat(64)] });
    expect(info).not.toHaveProperty("result");
    expect(info.internal_transactions).toEqual([
      {
        hash,
        caller_address: forwarderHex,
        transferTo_address: USDT_HEX,
        callValueInfo: [{ callValue: 700_000 }],
        note: CALL_NOTE,
        rejected: true,
      },
    ]);
    expect(Number((await account(devnode.genesis.forwarder.base58)).balance ?? 0)).toBe(before + 700_000);
    expect(await account(USDT)).not.toHaveProperty("balance");
  });

  it("a transaction that fails after its internal transfers: REVERT, every entry rejected, nothing moved (VMActuator's rejectInternalTransactions)", async ({
    devnode,
    tronWeb,
    alice,
  }) => {
    const { account, forwarder, freshAddress, hexOf, mined } = forwarderCalls({ devnode, tronWeb });
    const to = await freshAddress();
    const balanceBefore = Number((await account(alice.base58)).balance);
    const tokenBefore = ((await account(alice.base58)).assetV2 as { key: string; value: number }[]).find((asset) => asset.key === TRC10_ID);
    const txid: string = await (await forwarder())
      .forwardAndRevert(to)
      .send({ callValue: 1_000_000, tokenId: TRC10_ID, tokenValue: 5, feeLimit: FEE_LIMIT });
    const { info, contractRet } = await mined(txid);
    expect(contractRet).toBe("REVERT");
    expect(info).toMatchObject({
      result: "FAILED",
      receipt: { result: "REVERT" },
      resMessage: Buffer.from("REVERT opcode executed").toString("hex"),
    });
    expect(Buffer.from((info.contractResult as string[])[0]!, "hex").toString()).toContain("forwardAndRevert");
    const entry = {
      hash,
      caller_address: devnode.genesis.forwarder.hex,
      transferTo_address: hexOf(to),
      note: CALL_NOTE,
      rejected: true,
    };
    expect(info.internal_transactions).toEqual([
      { ...entry, callValueInfo: [{ callValue: 1_000_000 }] },
      { ...entry, callValueInfo: [{}, { callValue: 5, tokenId: TRC10_ID }] },
    ]);
    expect(await account(to)).toEqual({});
    expect(Number((await account(alice.base58)).balance)).toBe(balanceBefore - Number(info.fee));
    expect(((await account(alice.base58)).assetV2 as { key: string }[]).find((asset) => asset.key === TRC10_ID)).toEqual(tokenBefore);

    // forward's transfer to a contract reverts the whole call (Solidity's transfer), with the entry rejected.
    const reverted: string = await (await forwarder()).forward(USDD).send({ callValue: 3, feeLimit: FEE_LIMIT });
    const second = await mined(reverted);
    expect(second.contractRet).toBe("REVERT");
    expect(second.info.internal_transactions).toEqual([{ ...entry, transferTo_address: hexOf(USDD), callValueInfo: [{ callValue: 3 }] }]);
  });

  it("OUT_OF_ENERGY between two CALLs: the entry made before is rejected, the whole limit burned; the CALL that did not fit has none (Program.spendEnergy)", async ({
    devnode,
    tronWeb,
  }) => {
    const { account, forwarder, freshAddress, hexOf, mined } = forwarderCalls({ devnode, tronWeb });
    const to = await freshAddress();
    // 300 (dispatch) + 34 700 (TRX to a new account) fit in 40 000; the token CALL's 9 700 do not.
    const txid: string = await (await forwarder())
      .forward(to)
      .send({ callValue: 1_000_000, tokenId: TRC10_ID, tokenValue: 5, feeLimit: 4_000_000 });
    const { info, contractRet } = await mined(txid);
    expect(contractRet).toBe("OUT_OF_ENERGY");
    expect(info).toMatchObject({
      result: "FAILED",
      receipt: { result: "OUT_OF_ENERGY", energy_usage_total: 40_000, energy_fee: 4_000_000 },
    });
    expect(Buffer.from(String(info.resMessage), "hex").toString()).toBe(
      "Not enough energy for 'CALL' operation executing: curInvokeEnergyLimit[40000], curOpEnergy[9700], usedEnergy[35000]",
    );
    expect(info.internal_transactions).toEqual([
      {
        hash,
        caller_address: devnode.genesis.forwarder.hex,
        transferTo_address: hexOf(to),
        callValueInfo: [{ callValue: 1_000_000 }],
        note: CALL_NOTE,
        rejected: true,
      },
    ]);
    expect(await account(to)).toEqual({});
  });
});

describe("the forwarder's internal transactions as printed, checked at broadcast and run as constant calls (HttpSelfFormatFieldName, checkTokenValueAndId)", () => {
  it("visible=true prints caller_address and transferTo_address in Base58 (HttpSelfFormatFieldName); hash and note stay hex", async ({
    devnode,
    tronWeb,
  }) => {
    const { forwarder, freshAddress, mined } = forwarderCalls({ devnode, tronWeb });
    const to = await freshAddress();
    const txid: string = await (await forwarder()).forward(to).send({ callValue: 42, feeLimit: FEE_LIMIT });
    const { info } = await mined(txid);
    const visible = (await postJson(devnode, "/wallet/gettransactioninfobyid", { value: txid, visible: true })) as Info;
    expect(visible.internal_transactions).toEqual([
      {
        hash: info.internal_transactions?.[0]?.hash,
        caller_address: devnode.genesis.forwarder.base58,
        transferTo_address: to,
        callValueInfo: [{ callValue: 42 }],
        note: CALL_NOTE,
      },
    ]);
    expect(await postJson(devnode, "/walletsolidity/gettransactioninfobyid", { value: txid })).toEqual(info);
  });

  it("what the caller sends is checked at broadcast (checkTokenValueAndId, MUtil.transferToken): CONTRACT_VALIDATE_ERROR", async ({
    devnode,
    tronWeb,
    alice,
    bob,
  }) => {
    const attempt = async (options: { tokenId: string; tokenValue: number }): Promise<string> => {
      const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
        devnode.genesis.forwarder.base58,
        "forward(address)",
        { ...options, feeLimit: FEE_LIMIT },
        [{ type: "address", value: bob.base58 }],
        alice.base58,
      );
      const answer = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction, alice.privateKey));
      expect(answer.code).toBe("CONTRACT_VALIDATE_ERROR");
      return Buffer.from(answer.message ?? "", "hex").toString();
    };
    expect(await attempt({ tokenId: TRC10_ID, tokenValue: 10 ** 15 })).toBe("Contract validate error : assetBalance is not sufficient.");
    expect(await attempt({ tokenId: "1000000", tokenValue: 1 })).toBe("Contract validate error : tokenId must be > 1000000");
    expect(await attempt({ tokenId: "1000099", tokenValue: 1 })).toBe("Contract validate error : No asset !");
  });

  it("getcontract shows the forwarder's payable ABI; constant calls and estimateenergy run it without moving anything", async ({
    devnode,
    alice,
    bob,
  }) => {
    const forwarderHex = devnode.genesis.forwarder.hex;
    expect(await postJson(devnode, "/wallet/getcontract", { value: forwarderHex })).toMatchObject({
      contract_address: forwarderHex,
      name: "Forwarder",
      abi: { entrys: expect.arrayContaining([expect.objectContaining({ name: "forward", stateMutability: "Payable", payable: true })]) },
    });
    expect(await postJson(devnode, "/wallet/getcontractinfo", { value: forwarderHex })).toMatchObject({ contract_state: {} });
    const call = {
      owner_address: alice.hex,
      contract_address: forwarderHex,
      function_selector: "forward(address)",
      parameter: "0".repeat(24) + bob.hex.slice(2),
      call_value: 5_000,
    };
    const before = await postJson(devnode, "/wallet/getaccount", { address: bob.hex });
    // 300 (dispatch) + 700 (CALL) + 9 000 (value transfer to an existing account).
    expect(await postJson(devnode, "/wallet/triggerconstantcontract", call)).toMatchObject({
      result: { result: true },
      energy_used: 10_000,
      constant_result: [""],
    });
    expect(await postJson(devnode, "/wallet/estimateenergy", call)).toEqual({ result: { result: true }, energy_required: 10_000 });
    expect(await postJson(devnode, "/wallet/getaccount", { address: bob.hex })).toEqual(before);
    expect(await postJson(devnode, "/wallet/triggerconstantcontract", { ...call, call_value: 10 ** 15 })).toEqual({
      result: {
        code: "CONTRACT_VALIDATE_ERROR",
        message: Buffer.from("Validate InternalTransfer error, balance is not sufficient.").toString("hex"),
      },
    });
  });
});
