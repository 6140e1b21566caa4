/** The read endpoints of /api/v1/trx at the proxy's internal edge, against the Tron simulator. */
import { describe, expect } from "vitest";
import type { TrxStack } from "../testing/index.ts";
import { trxProxyTest } from "../testing/trx-proxy-fixtures.ts";

const it = trxProxyTest;

const GENERIC = "Could not connect to TRX node.";
const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> });
const node = async (stack: TrxStack, path: string, body: unknown) =>
  (await fetch(`${stack.devnode.url}${path}`, { method: "POST", body: JSON.stringify(body) })).text();
const NEVER_SEEN = "TPLkz8rzTT7gKRS1bUm3hBcvw1EExAbKTV";

describe("GET /api/v1/trx/health", () => {
  it("reports the node's head and solidified blocks", async ({ trxStack: stack }) => {
    const head = await stack.devnode.produceBlock();
    const { status, body } = await json(await stack.request("/api/v1/trx/health"));
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "ok", block: head.number, solidified_block: head.number });
    expect(body.head_age_seconds).toBeLessThan(60);
  });
});

describe("GET /api/v1/trx/account/{address}", () => {
  it("passes the node's record through byte for byte, for a Base58 or a hex address", async ({ trxStack: stack }) => {
    const alice = stack.devnode.genesis.accounts[0]!;
    const expected = (await node(stack, "/wallet/getaccount", { address: alice.hex })).trimEnd();
    for (const address of [alice.base58, alice.hex]) {
      const response = await stack.request(`/api/v1/trx/account/${address}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(expected);
    }
    const record = JSON.parse(expected) as { balance: number; assetV2: unknown[] };
    expect(record.balance).toBe(alice.balanceSun);
    expect(record.assetV2).toHaveLength(2);
  });

  it("answers [] for an address never seen on chain", async ({ trxStack: stack }) => {
    expect(await json(await stack.request(`/api/v1/trx/account/${NEVER_SEEN}`))).toEqual({ status: 200, body: [] });
  });

  it("answers an unparseable address with the spec's 500 and details.reason invalid_argument", async ({ trxStack: stack }) => {
    for (const address of ["TPLkz8rzTT7gKRS1bUm3hBcvw1EExAbKTW", "not-an-address", "41abc"]) {
      expect(await json(await stack.request(`/api/v1/trx/account/${address}`)), address).toEqual({
        status: 500,
        body: { error: GENERIC, details: { reason: "invalid_argument" } },
      });
    }
  });
});

describe("GET /api/v1/trx/account/{address}/balance and /assets", () => {
  it("reports TRX in SUN, TRC-10 by symbol and every whitelisted TRC-20, exactly scaled", async ({ trxStack: stack }) => {
    const alice = stack.devnode.genesis.accounts[0]!;
    const response = await stack.request(`/api/v1/trx/account/${alice.base58}/balance`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    const usdt = stack.devnode.genesis.trc20.find((token) => token.symbol === "USDT")!;
    const usdd = stack.devnode.genesis.trc20.find((token) => token.symbol === "USDD")!;
    const tokens = Object.fromEntries(
      stack.devnode.genesis.trc10.map((token) => [token.abbr, { name: token.name, id: token.id, balance: alice.trc10[token.id] }]),
    );
    expect(body).toEqual({
      address: alice.base58,
      balance: alice.balanceSun,
      trc10: tokens,
      trc20: {
        [usdt.base58]: alice.trc20[usdt.base58],
        TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8: "0",
        [usdd.base58]: alice.trc20[usdd.base58],
        TUpMhErZL2fhh4sVNULAbNKLokS4GjC1F4: "0",
        TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR: "0",
      },
      trc20_tokens: expect.objectContaining({
        USDT: { contract: usdt.base58, name: "Tether USD", decimals: 6, balance_raw: alice.trc20[usdt.base58], balance: "1000000" },
        USDD: { contract: usdd.base58, name: "Decentralized USD", decimals: 18, balance_raw: alice.trc20[usdd.base58], balance: "1000000" },
        USDC: { contract: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8", name: "USD Coin", decimals: 6, balance_raw: "0", balance: "0" },
      }),
    });
    // The same handler: byte-identical.
    expect(await (await stack.request(`/api/v1/trx/account/${alice.hex}/assets`)).text()).toBe(text);
  });

  it("answers trc10 [] and zero balances for an address never seen", async ({ trxStack: stack }) => {
    const body = (await json(await stack.request(`/api/v1/trx/account/${NEVER_SEEN}/assets`))).body;
    expect(body).toMatchObject({ address: NEVER_SEEN, balance: 0, trc10: [] });
    expect(Object.values(body.trc20 as Record<string, string>).every((value) => value === "0")).toBe(true);
  });

  it("answers an unparseable address with invalid_argument", async ({ trxStack: stack }) => {
    expect(await json(await stack.request("/api/v1/trx/account/Tnope/balance"))).toEqual({
      status: 500,
      body: { error: GENERIC, details: { reason: "invalid_argument" } },
    });
  });
});

describe("GET /api/v1/trx/tokens/trc20", () => {
  it("lists the configured whitelist (mainnet defaults)", async ({ trxStack: stack }) => {
    const { status, body } = await json(await stack.request("/api/v1/trx/tokens/trc20"));
    expect(status).toBe(200);
    const tokens = body.tokens as Array<{ symbol: string; contract: string; contract_hex: string; decimals: number }>;
    expect(tokens.map((token) => token.symbol)).toEqual(["USDT", "USDC", "USDD", "TUSD", "WTRX"]);
    for (const token of stack.devnode.genesis.trc20) {
      expect(tokens.find((entry) => entry.symbol === token.symbol)).toMatchObject({
        contract: token.base58,
        contract_hex: token.hex,
        decimals: token.decimals,
      });
    }
  });
});

describe("GET /api/v1/trx/block/latest/{num}", () => {
  it("answers the newest blocks newest first, each as the node prints it, with its transactions", async ({ trxStack: stack }) => {
    const alice = stack.devnode.genesis.accounts[0]!;
    const bob = stack.devnode.genesis.accounts[1]!;
    // A block with a transaction in it, then an empty one on top.
    const built = JSON.parse(
      await node(stack, "/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 1 }),
    ) as {
      txID: string;
    };
    expect(built.txID).toMatch(/^[0-9a-f]{64}$/);
    await stack.devnode.produceBlock();
    const head = await stack.devnode.produceBlock();
    const response = await stack.request("/api/v1/trx/block/latest/3");
    expect(response.status).toBe(200);
    const { block } = (await response.json()) as { block: Array<{ block_header: { raw_data: { number: number } } }> };
    expect(block.map((entry) => entry.block_header.raw_data.number)).toEqual([head.number, head.number - 1, head.number - 2]);
    for (const entry of block)
      expect(entry).toEqual(JSON.parse(await node(stack, "/wallet/getblockbynum", { num: entry.block_header.raw_data.number })));
  });

  it("stops at the genesis block when num exceeds the chain", async ({ trxStack: stack }) => {
    const head = (JSON.parse(await node(stack, "/wallet/getnowblock", {})) as { block_header: { raw_data: { number: number } } })
      .block_header.raw_data.number;
    const { block } = (await (await stack.request("/api/v1/trx/block/latest/50")).json()) as { block: unknown[] };
    expect(block).toHaveLength(Math.min(50, head + 1));
  });

  it("answers num 0 or above the cap with 400 and a non-numeric num with a routing 404", async ({ trxStack: stack }) => {
    expect(await json(await stack.request("/api/v1/trx/block/latest/0"))).toEqual({
      status: 400,
      body: { error: "The num must be an integer between 1 and 50." },
    });
    expect((await json(await stack.request("/api/v1/trx/block/latest/51"))).status).toBe(400);
    const notNumeric = await json(await stack.request("/api/v1/trx/block/latest/abc"));
    expect(notNumeric.status).toBe(404);
    expect(notNumeric.body.message).toMatch(/could not be found/);
  });
});

describe("POST /api/v1/trx/jsonrpc", () => {
  const rpc = async (stack: TrxStack, body: unknown) =>
    json(await stack.request("/api/v1/trx/jsonrpc", { method: "POST", body: JSON.stringify(body) }));

  it("forwards read methods to the node's /jsonrpc and passes its answer through", async ({ trxStack: stack }) => {
    const direct = (await (
      await fetch(`${stack.devnode.url}/jsonrpc`, {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
      })
    ).json()) as { result: string };
    expect(await rpc(stack, { jsonrpc: "2.0", id: 7, method: "eth_blockNumber", params: [] })).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 7, result: direct.result },
    });
    expect((await rpc(stack, { jsonrpc: "2.0", id: "c", method: "eth_chainId" })).body).toMatchObject({ id: "c", result: "0xa57cb69c" });
  });

  it("refuses every other method with -32601 without contacting the node", async ({ trxStack: stack }) => {
    for (const method of ["eth_sendRawTransaction", "eth_newFilter", "buildTransaction", "admin_peers"]) {
      const { status, body } = await rpc(stack, { jsonrpc: "2.0", id: "x", method, params: [] });
      expect(status, method).toBe(403);
      expect(body, method).toMatchObject({ error: { code: -32601 }, id: "x" });
      expect(body).not.toHaveProperty("result");
    }
  });

  it("answers a body that is not JSON with -32700", async ({ trxStack: stack }) => {
    const response = await stack.request("/api/v1/trx/jsonrpc", { method: "POST", body: "{nope" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

describe("the node down or not configured", () => {
  it("answers the spec's 500 with details.reason node_unreachable / not_configured, and 502 -32603 on jsonrpc", async ({
    trxStack: stack,
  }) => {
    const down = await stack.startProxy({ TRON_NODE_URL: "http://127.0.0.1:1" });
    const alice = stack.devnode.genesis.accounts[0]!.base58;
    for (const path of [
      `/api/v1/trx/account/${alice}`,
      `/api/v1/trx/account/${alice}/balance`,
      "/api/v1/trx/block/latest/1",
      `/api/v1/trx/transactions/${"ab".repeat(32)}`,
    ]) {
      expect(await json(await down.request(path)), path).toEqual({
        status: 500,
        body: { error: GENERIC, details: { reason: "node_unreachable" } },
      });
    }
    const rpc = await json(
      await down.request("/api/v1/trx/jsonrpc", {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber" }),
      }),
    );
    expect(rpc).toEqual({ status: 502, body: { error: { code: -32603, message: GENERIC }, id: 1 } });
    expect(await json(await down.request("/api/v1/trx/health"))).toEqual({ status: 500, body: { status: "error", message: GENERIC } });
    const unconfigured = await stack.startProxy({});
    expect(await json(await unconfigured.request(`/api/v1/trx/account/${alice}`))).toEqual({
      status: 500,
      body: { error: GENERIC, details: { reason: "not_configured" } },
    });
  });

  it("fails over to the next node URL", async ({ trxStack: stack }) => {
    const failover = await stack.startProxy({ TRON_NODE_URL: `http://127.0.0.1:1,${stack.devnode.url}` });
    expect((await failover.request("/api/v1/trx/block/latest/1")).status).toBe(200);
  });
});
