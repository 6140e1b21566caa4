import { describe, expect } from "vitest";
import { MATURE_BLOCKS, type BtcStack } from "../testing/index.ts";
import { btcProxyTest } from "../testing/btc-proxy-fixtures.ts";

const it = btcProxyTest;

const GENERIC = "Could not connect to BTC node.";
const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> });

describe("GET /api/v1/btc/health", () => {
  it("reports the node's chain, height and sync progress", async ({ btcStack: stack }) => {
    const { status, body } = await json(await stack.request("/api/v1/btc/health"));
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "ok", chain: "regtest", blocks: MATURE_BLOCKS, headers: MATURE_BLOCKS });
    expect(typeof body.verificationProgress).toBe("number");
    expect(Date.parse(body.time as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("answers {status: error, message} with 500 when the node is down", async ({ btcStack: stack }) => {
    const proxy = await stack.startProxy({ BTC_RPC_URL: "http://127.0.0.1:1", BTC_RPC_USER: "u", BTC_RPC_PASSWORD: "p" });
    const response = await fetch(`${proxy.url}/api/v1/btc/health`, { headers: { "x-chaingate-account-id": "1" } });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ status: "error", message: GENERIC });
  });
});

describe("blocks", () => {
  it("GET /block/{height} streams the node's verbosity-2 block unchanged", async ({ btcStack: stack }) => {
    const hash = await stack.node.rpc<string>("getblockhash", [5]);
    const expected = await stack.node.rpc("getblock", [hash, 2]);
    const response = await stack.request("/api/v1/btc/block/5");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const block = (await response.json()) as { tx: { vin: { coinbase?: string }[] }[] };
    expect(block).toEqual(expected);
    expect(block.tx[0]?.vin[0]?.coinbase).toBeDefined();
  });

  it("answers a negative height with 400, a non-numeric one with a routing 404", async ({ btcStack: stack }) => {
    expect(await json(await stack.request("/api/v1/btc/block/-1"))).toEqual({
      status: 400,
      body: { error: "The block number must be a non-negative integer." },
    });
    const notNumeric = await json(await stack.request("/api/v1/btc/block/abc"));
    expect(notNumeric.status).toBe(404);
    expect(notNumeric.body.message).toMatch(/could not be found/);
  });

  it("answers a height beyond any block number (above 2^31 - 1) with 400, not a node failure", async ({ btcStack: stack }) => {
    for (const height of ["2147483648", "99999999999999999999999999999"]) {
      expect(await json(await stack.request(`/api/v1/btc/block/${height}`)), height).toEqual({
        status: 400,
        body: { error: "The block number must be a non-negative integer no greater than 2147483647." },
      });
    }
    expect((await json(await stack.request("/api/v1/btc/block/2147483647"))).body).toMatchObject({
      details: { reason: "invalid_argument", node_code: -8 },
    });
  });

  it("answers a height above the tip with the generic 500 and details saying invalid argument", async ({ btcStack: stack }) => {
    expect(await json(await stack.request("/api/v1/btc/block/100000"))).toEqual({
      status: 500,
      body: { error: GENERIC, details: { reason: "invalid_argument", node_code: -8, node_message: "Block height out of range" } },
    });
  });

  it("GET /block/hash/{hash}, /header, /transactions/count and /block/best read by hash", async ({ btcStack: stack }) => {
    const best = (await json(await stack.request("/api/v1/btc/block/best"))).body;
    expect(best).toEqual({ hash: await stack.node.rpc("getbestblockhash"), height: await stack.node.rpc("getblockcount") });
    const block = (await (await stack.request(`/api/v1/btc/block/hash/${best.hash}`)).json()) as { hash: string; tx: unknown[] };
    expect(block.hash).toBe(best.hash);
    const header = await (await stack.request(`/api/v1/btc/block/hash/${best.hash}/header`)).json();
    expect(header).toEqual(await stack.node.rpc("getblockheader", [best.hash, true]));
    expect(await json(await stack.request(`/api/v1/btc/block/hash/${best.hash}/transactions/count`))).toEqual({
      status: 200,
      body: { transactionCount: block.tx.length },
    });
  });

  it("tells an unknown block hash (not_found) from a malformed one (invalid_argument)", async ({ btcStack: stack }) => {
    const unknown = await json(await stack.request(`/api/v1/btc/block/hash/${"0".repeat(64)}/transactions/count`));
    expect(unknown).toMatchObject({ status: 500, body: { error: GENERIC, details: { reason: "not_found", node_code: -5 } } });
    const malformed = await json(await stack.request("/api/v1/btc/block/hash/xyz/transactions/count"));
    expect(malformed).toMatchObject({ status: 500, body: { error: GENERIC, details: { reason: "invalid_argument", node_code: -8 } } });
  });
});

describe("transactions", () => {
  async function signedTransaction(stack: BtcStack, amount: number): Promise<{ hex: string; to: string }> {
    const to = await stack.node.walletRpc<string>("getnewaddress");
    const raw = await stack.node.walletRpc<string>("createrawtransaction", [[], { [to]: amount }]);
    const funded = await stack.node.walletRpc<{ hex: string }>("fundrawtransaction", [raw]);
    const signed = await stack.node.walletRpc<{ hex: string; complete: boolean }>("signrawtransactionwithwallet", [funded.hex]);
    expect(signed.complete).toBe(true);
    return { hex: signed.hex, to };
  }

  it("POST /transactions/send-raw broadcasts a signed transaction and returns its txid", async ({ btcStack: stack }) => {
    const { hex } = await signedTransaction(stack, 0.25);
    const { status, body } = await json(
      await stack.request("/api/v1/btc/transactions/send-raw", { method: "POST", body: JSON.stringify({ hex }) }),
    );
    expect(status).toBe(200);
    expect(await stack.node.rpc<string[]>("getrawmempool")).toContain(body.txid);
    // Broadcasting again is harmless: the node answers the same txid.
    const again = await json(await stack.request("/api/v1/btc/transactions/send-raw", { method: "POST", body: JSON.stringify({ hex }) }));
    expect(again).toEqual({ status: 200, body: { txid: body.txid } });

    // A double spend of the same input: the node's refusal, with its code, behind the generic message.
    const decoded = await stack.node.rpc<{ vin: { txid: string; vout: number }[] }>("decoderawtransaction", [hex]);
    const input = decoded.vin[0]!;
    const spent = await stack.node.rpc<{ value: number }>("gettxout", [input.txid, input.vout, false]);
    const elsewhere = await stack.node.walletRpc<string>("getnewaddress");
    const conflict = await stack.node.walletRpc<string>("createrawtransaction", [
      [input],
      { [elsewhere]: Number((spent.value - 0.001).toFixed(8)) },
    ]);
    const signedConflict = await stack.node.walletRpc<{ hex: string }>("signrawtransactionwithwallet", [conflict]);
    const refused = await json(
      await stack.request("/api/v1/btc/transactions/send-raw", { method: "POST", body: JSON.stringify({ hex: signedConflict.hex }) }),
    );
    expect(refused).toMatchObject({ status: 500, body: { error: GENERIC, details: { reason: "node_error", node_code: -26 } } });
  });

  it("refuses a missing or non-hex body with 422, an undecodable transaction with 500 invalid_argument", async ({ btcStack: stack }) => {
    const missing = await json(await stack.request("/api/v1/btc/transactions/send-raw", { method: "POST", body: "{}" }));
    expect(missing).toEqual({
      status: 422,
      body: { message: "The hex field is required.", errors: { hex: ["The hex field is required."] } },
    });
    expect(
      (await stack.request("/api/v1/btc/transactions/send-raw", { method: "POST", body: JSON.stringify({ hex: "xyz" }) })).status,
    ).toBe(422);
    const undecodable = await json(
      await stack.request("/api/v1/btc/transactions/send-raw", { method: "POST", body: JSON.stringify({ hex: "00" }) }),
    );
    expect(undecodable).toMatchObject({ status: 500, body: { details: { reason: "invalid_argument", node_code: -22 } } });
  });

  it("GET /transactions/{txid} and /outputs/{n}: the transaction, then its output spent or not", async ({ btcStack: stack }) => {
    const { hex, to } = await signedTransaction(stack, 0.5);
    const txid = await stack.node.rpc<string>("sendrawtransaction", [hex]);
    await stack.node.mine(1);
    const tx = (await (await stack.request(`/api/v1/btc/transactions/${txid}`)).json()) as {
      vout: { scriptPubKey: { address?: string; addresses?: string[] } }[];
    };
    expect(tx).toEqual(await stack.node.rpc("getrawtransaction", [txid, true]));
    const index = tx.vout.findIndex((o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) === to);
    const unspent = (await json(await stack.request(`/api/v1/btc/transactions/${txid}/outputs/${index}`))).body;
    expect(unspent).toMatchObject({ unspent: true, output: { value: 0.5 } });
    const missing = (await json(await stack.request(`/api/v1/btc/transactions/${txid}/outputs/999`))).body;
    expect(missing).toEqual({ unspent: false, output: null });
    const unknown = await json(await stack.request(`/api/v1/btc/transactions/${"ab".repeat(32)}`));
    expect(unknown).toMatchObject({ status: 500, body: { details: { reason: "not_found", node_code: -5 } } });
  });
});

describe("network reads", () => {
  it("GET /fee-estimate answers in BTC/kvB and sat/vB, with the node's errors when it lacks data", async ({ btcStack: stack }) => {
    const { status, body } = await json(await stack.request("/api/v1/btc/fee-estimate?blocks=3"));
    expect(status).toBe(200);
    expect(body).toHaveProperty("feerate_btc_per_kvb");
    expect(body).toHaveProperty("feerate_sat_per_vb");
    if (body.feerate_btc_per_kvb === null) expect((body.errors as string[]).length).toBeGreaterThan(0);
    else expect(body.feerate_sat_per_vb).toBeCloseTo((body.feerate_btc_per_kvb as number) * 1e5, 3);
    expect((await stack.request("/api/v1/btc/fee-estimate?blocks=0")).status).toBe(422);
    expect((await stack.request("/api/v1/btc/fee-estimate?mode=fast")).status).toBe(422);
  });

  it("GET /mempool is the node's getmempoolinfo", async ({ btcStack: stack }) => {
    const body = (await json(await stack.request("/api/v1/btc/mempool"))).body;
    expect(body).toHaveProperty("size");
    expect(body).toHaveProperty("mempoolminfee");
  });
});

describe("GET /api/v1/btc/account", () => {
  it("lists the node wallet's receiving addresses", async ({ btcStack: stack }) => {
    const address = await stack.node.walletRpc<string>("getnewaddress");
    const txid = await stack.node.walletRpc<string>("sendtoaddress", [address, 1.5]);
    await stack.node.mine(1);
    const { status, body } = await json(await stack.request("/api/v1/btc/account?minconf=1"));
    expect(status).toBe(200);
    expect(body).toEqual(expect.arrayContaining([expect.objectContaining({ address, amount: 1.5, confirmations: 1, txids: [txid] })]));
  });

  it("refuses a negative or non-integer minconf and a non-boolean flag with 400", async ({ btcStack: stack }) => {
    for (const query of ["minconf=-1", "minconf=abc", "minconf=1.5"]) {
      expect(await json(await stack.request(`/api/v1/btc/account?${query}`))).toEqual({
        status: 400,
        body: { error: "The minconf must be a non-negative integer." },
      });
    }
    expect((await stack.request("/api/v1/btc/account?includeEmpty=maybe")).status).toBe(400);
  });

  it("passes the node's amount text through exactly: 50 satoshis stay 0.00000050, never 5e-7", async ({ btcStack: stack }) => {
    const to = await stack.node.walletRpc<string>("getnewaddress", ["", "bech32"]);
    const change = await stack.node.walletRpc<string>("getnewaddress", ["", "bech32"]);
    const [coin] = await stack.node.walletRpc<Array<{ txid: string; vout: number; amount: number }>>("listunspent", [1]);
    // The wallet refuses dust outputs; a hand-built transaction does not.
    const raw = await stack.node.rpc<string>("createrawtransaction", [
      [{ txid: coin!.txid, vout: coin!.vout }],
      [{ [to]: 0.0000005 }, { [change]: Math.round((coin!.amount - 0.001) * 1e8) / 1e8 }],
    ]);
    const signed = await stack.node.walletRpc<{ hex: string }>("signrawtransactionwithwallet", [raw]);
    await stack.node.rpc("sendrawtransaction", [signed.hex]);
    await stack.node.mine(1);
    const response = await stack.request("/api/v1/btc/account?minconf=1");
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(`{"address":"${to}","amount":0.00000050,"confirmations":1,`);
    expect((JSON.parse(text) as Array<{ address: string; amount: number }>).find((row) => row.address === to)?.amount).toBe(5e-7);
  });

  it("refuses a repeated or array-form parameter with 400 like any bad value, and inherited names as values", async ({
    btcStack: stack,
  }) => {
    const minconf = { status: 400, body: { error: "The minconf must be a non-negative integer." } };
    for (const query of ["minconf[]=1", "minconf=1&minconf=2", "minconf[0]=1"]) {
      expect(await json(await stack.request(`/api/v1/btc/account?${query}`)), query).toEqual(minconf);
    }
    const includeEmpty = { status: 400, body: { error: "The includeEmpty parameter must be true or false." } };
    for (const query of [
      "includeEmpty=constructor",
      "includeEmpty=toString",
      "includeEmpty=__proto__",
      "includeEmpty=true&includeEmpty=false",
      "includeEmpty[]=true",
    ]) {
      expect(await json(await stack.request(`/api/v1/btc/account?${query}`)), query).toEqual(includeEmpty);
    }
    expect(await json(await stack.request("/api/v1/btc/fee-estimate?blocks=2&blocks=3"))).toEqual({
      status: 400,
      body: { error: "The blocks parameter must be given once, as a single value." },
    });
  });

  it("answers [] when the node has no wallet (the production case)", async ({ btcStack: stack }) => {
    await stack.node.rpc("unloadwallet", [stack.node.walletName]);
    try {
      expect(await json(await stack.request("/api/v1/btc/account"))).toEqual({ status: 200, body: [] });
    } finally {
      await stack.node.rpc("loadwallet", [stack.node.walletName]);
    }
  });
});
