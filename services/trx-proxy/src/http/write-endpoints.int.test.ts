/**
 * The replacement flow at the proxy's internal edge against the Tron simulator: create (built by the node)
 * → sign locally with TronWeb → broadcast → confirm with transactions/{hash} once the block is
 * produced, for TRX, TRC-10 and TRC-20, with balances read before and after.
 */
import { TronWeb } from "tronweb";
import { describe, expect } from "vitest";
import type { TrxStack } from "../testing/index.ts";
import { trxProxyTest } from "../testing/trx-proxy-fixtures.ts";

const it = trxProxyTest.extend<{ tronWeb: TronWeb }>({
  /** TronWeb on the file's simulator: it signs locally what the proxy built. */
  tronWeb: [async ({ trxStack }, use) => use(new TronWeb({ fullHost: trxStack.devnode.url })), { scope: "file" }],
});

const GENERIC = "Could not connect to TRX node.";
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read several levels deep, as a client does
type Body = Record<string, any>;
const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Body });
const alice = (stack: TrxStack) => stack.devnode.genesis.accounts[0]!;
const bob = (stack: TrxStack) => stack.devnode.genesis.accounts[1]!;
const fresh = () => TronWeb.createRandom() as unknown as { address: string; privateKey: string };

interface Balances {
  balance: number;
  trc10: Record<string, { id: string; balance: number }> | [];
  trc20_tokens: Record<string, { balance_raw: string; balance: string }>;
}
const balances = async (stack: TrxStack, address: string) =>
  (await json(await stack.request(`/api/v1/trx/account/${address}/balance`))).body as Balances;

/** create → TronWeb signs → broadcast; returns the txID. */
async function send(stack: TrxStack, tronWeb: TronWeb, body: Record<string, unknown>, privateKey: string): Promise<string> {
  const created = await json(await stack.post("/api/v1/trx/transactions/create", body));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const signed = await tronWeb.trx.sign(created.body as never, privateKey);
  const broadcast = await json(await stack.post("/api/v1/trx/transactions/broadcast", signed));
  expect(broadcast).toEqual({ status: 200, body: { result: true, txid: created.body.txID } });
  return created.body.txID as string;
}

describe("create → sign locally → broadcast → confirm", () => {
  it("moves 0.1 TRX (100000 SUN) to a new account, the sender paying amount plus the reported fee", async ({
    trxStack: stack,
    tronWeb,
  }) => {
    const to = fresh().address;
    const before = await balances(stack, alice(stack).base58);
    const txid = await send(stack, tronWeb, { from: alice(stack).base58, to, amount: "0.1" }, alice(stack).privateKey);

    const pending = await json(await stack.request(`/api/v1/trx/transactions/${txid}`));
    expect(pending.body).toMatchObject({ txID: txid, status: "pending", confirmed: false, block_number: null });

    const block = await stack.devnode.produceBlock();
    const { status, body } = await json(await stack.request(`/api/v1/trx/transactions/${txid}`));
    expect(status).toBe(200);
    expect(body).toMatchObject({ txID: txid, status: "confirmed", confirmed: true, block_number: block.number, contractRet: "SUCCESS" });
    expect(body.transaction.raw_data.contract[0].parameter.value).toMatchObject({ amount: 100000, to_address: TronWeb.address.toHex(to) });
    // A new account: the creation fee (bandwidth) plus CreateNewAccountFeeInSystemContract, as the chain parameters say.
    const { chainParameter } = (await (await fetch(`${stack.devnode.url}/wallet/getchainparameters`)).json()) as {
      chainParameter: Array<{ key: string; value?: number }>;
    };
    const parameter = (key: string) => chainParameter.find((entry) => entry.key === key)?.value ?? 0;
    expect(body.fee).toBe(parameter("getCreateAccountFee") + parameter("getCreateNewAccountFeeInSystemContract"));

    expect((await balances(stack, to)).balance).toBe(100_000);
    expect((await balances(stack, alice(stack).base58)).balance).toBe(before.balance - 100_000 - body.fee);
  });

  it("moves a TRC-10 token in whole units (2.5 DTK, precision 6)", async ({ trxStack: stack, tronWeb }) => {
    const token = stack.devnode.genesis.trc10.find((entry) => entry.precision === 6)!;
    const before = (await balances(stack, bob(stack).base58)).trc10 as Record<string, { balance: number }>;
    const txid = await send(
      stack,
      tronWeb,
      { from: alice(stack).base58, to: bob(stack).hex, amount: "2.5", currency: token.id },
      alice(stack).privateKey,
    );
    await stack.devnode.produceBlock();
    expect((await json(await stack.request(`/api/v1/trx/transactions/${txid}`))).body).toMatchObject({
      contractRet: "SUCCESS",
      confirmed: true,
    });
    const after = (await balances(stack, bob(stack).base58)).trc10 as Record<string, { balance: number }>;
    expect(after[token.abbr]!.balance).toBe(before[token.abbr]!.balance + 2_500_000);
  });

  it("moves USDT (TRC-20, built by triggersmartcontract with the default fee_limit of 30 TRX), exact to the last unit", async ({
    trxStack: stack,
    tronWeb,
  }) => {
    const to = fresh().address;
    const before = await balances(stack, alice(stack).base58);
    const txid = await send(
      stack,
      tronWeb,
      { from: alice(stack).base58, to, amount: "12.345678", currency: "USDT" },
      alice(stack).privateKey,
    );
    await stack.devnode.produceBlock();
    const { body } = await json(await stack.request(`/api/v1/trx/transactions/${txid}`));
    expect(body).toMatchObject({ contractRet: "SUCCESS", confirmed: true, receipt: { result: "SUCCESS" } });
    expect(body.transaction.raw_data.fee_limit).toBe(30_000_000);
    expect((await balances(stack, to)).trc20_tokens.USDT).toMatchObject({ balance_raw: "12345678", balance: "12.345678" });
    const after = await balances(stack, alice(stack).base58);
    expect(BigInt(after.trc20_tokens.USDT!.balance_raw)).toBe(BigInt(before.trc20_tokens.USDT!.balance_raw) - 12_345_678n);
    expect(after.balance).toBe(before.balance - body.fee);
  });

  it("accepts a USDT transfer whose fee_limit is too low, then reports it OUT_OF_ENERGY with the fee burned", async ({
    trxStack: stack,
    tronWeb,
  }) => {
    const to = bob(stack).base58;
    const before = await balances(stack, to);
    const txid = await send(
      stack,
      tronWeb,
      { from: alice(stack).base58, to, amount: "1", currency: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", fee_limit: "1" },
      alice(stack).privateKey,
    );
    await stack.devnode.produceBlock();
    const { body } = await json(await stack.request(`/api/v1/trx/transactions/${txid}`));
    expect(body).toMatchObject({ contractRet: "OUT_OF_ENERGY", result: "FAILED", receipt: { result: "OUT_OF_ENERGY" } });
    expect(body.res_message).toMatch(/^Not enough energy/);
    // The whole limit (1 TRX) is burned for energy.
    expect(body.receipt.energy_fee).toBe(1_000_000);
    expect(body.fee).toBeGreaterThanOrEqual(1_000_000);
    expect((await balances(stack, to)).trc20_tokens.USDT).toEqual(before.trc20_tokens.USDT);
  });
});

describe("POST /api/v1/trx/transactions/broadcast", () => {
  it("answers 200 with result false and the node's code and decoded message when it rejects", async ({ trxStack: stack, tronWeb }) => {
    const created = await json(
      await stack.post("/api/v1/trx/transactions/create", { from: alice(stack).base58, to: bob(stack).base58, amount: "1" }),
    );
    // TronWeb refuses to sign with a key that does not own the transaction; its low-level signer does not.
    const wrongSigner = tronWeb.utils.crypto.signTransaction(bob(stack).privateKey, structuredClone(created.body));
    const refused = await json(await stack.post("/api/v1/trx/transactions/broadcast", wrongSigner));
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ result: false, code: "SIGERROR", txid: created.body.txID });
    expect(refused.body.message).toMatch(
      /^Validate signature error: .* is signed by TMy6uUVEfkeskZTVa2PoZvSy8kryDmeKmv but it is not contained of permission\.$/,
    );

    const signed = await tronWeb.trx.sign(created.body as never, alice(stack).privateKey);
    expect((await json(await stack.post("/api/v1/trx/transactions/broadcast", signed))).body.result).toBe(true);
    expect((await json(await stack.post("/api/v1/trx/transactions/broadcast", signed))).body).toMatchObject({
      result: false,
      code: "DUP_TRANSACTION_ERROR",
      message: "Dup transaction.",
    });
  });

  it("answers a body that is no signed transaction with 422", async ({ trxStack: stack }) => {
    const { status, body } = await json(await stack.post("/api/v1/trx/transactions/broadcast", { txID: "ab" }));
    expect(status).toBe(422);
    expect(Object.keys(body.errors as object).sort()).toEqual(["raw_data", "signature"]);
  });
});

describe("POST /api/v1/trx/transactions/create: refusals", () => {
  it("answers invalid fields with 422 and the field-by-field errors", async ({ trxStack: stack }) => {
    const { status, body } = await json(
      await stack.post("/api/v1/trx/transactions/create", { from: "Tnope", to: bob(stack).base58, amount: "0.0000001" }),
    );
    expect(status).toBe(422);
    expect(body.errors).toEqual({
      from: [expect.stringMatching(/Tron address/)],
      amount: ["The amount field has more than 6 decimal places."],
    });
    const missing = await json(await stack.post("/api/v1/trx/transactions/create", {}));
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject({
      from: ["The from field is required."],
      to: ["The to field is required."],
      amount: ["The amount field is required."],
    });
    const currency = await json(
      await stack.post("/api/v1/trx/transactions/create", {
        from: alice(stack).base58,
        to: bob(stack).base58,
        amount: "1",
        currency: "DOGE",
      }),
    );
    expect(currency.body.errors).toHaveProperty("currency");
    const feeOnTrx = await json(
      await stack.post("/api/v1/trx/transactions/create", {
        from: alice(stack).base58,
        to: bob(stack).base58,
        amount: "1",
        fee_limit: "10",
      }),
    );
    expect(feeOnTrx.body.errors).toEqual({ fee_limit: ["The fee limit field applies to TRC-20 transfers only."] });
  });

  it("reads an amount sent as a JSON number by its exact text", async ({ trxStack: stack }) => {
    const response = await stack.request("/api/v1/trx/transactions/create", {
      method: "POST",
      body: `{"from":"${alice(stack).base58}","to":"${bob(stack).base58}","amount":0.1}`,
    });
    const { body } = await json(response);
    expect(body.raw_data.contract[0].parameter.value.amount).toBe(100_000);
  });

  it("answers the node's refusal to build with 400 and its message", async ({ trxStack: stack }) => {
    const empty = fresh().address;
    const { status, body } = await json(
      await stack.post("/api/v1/trx/transactions/create", { from: empty, to: bob(stack).base58, amount: "1" }),
    );
    expect(status).toBe(400);
    expect(body.error).toMatch(/no OwnerAccount|balance is not sufficient/);
    expect(body.details).toMatchObject({ reason: "node_error" });
  });
});

describe("GET /api/v1/trx/transactions/{hash}: unknown and malformed", () => {
  it("tells an unknown hash (not_found) from a malformed one (invalid_argument)", async ({ trxStack: stack }) => {
    expect(await json(await stack.request(`/api/v1/trx/transactions/${"ab".repeat(32)}`))).toEqual({
      status: 500,
      body: { error: GENERIC, details: { reason: "not_found" } },
    });
    expect(await json(await stack.request("/api/v1/trx/transactions/xyz"))).toEqual({
      status: 500,
      body: { error: GENERIC, details: { reason: "invalid_argument" } },
    });
  });
});
