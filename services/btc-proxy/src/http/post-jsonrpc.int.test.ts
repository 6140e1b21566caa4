import { startNodeFaultProxy } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { BtcStack } from "../testing/index.ts";
import { btcProxyTest } from "../testing/btc-proxy-fixtures.ts";

/** What the node holds before the file's first test: block 1's hash, a mined wallet send, a signed transaction not yet sent. */
interface Seeded {
  blockHash: string;
  txid: string;
  signedHex: string;
}

const it = btcProxyTest.extend<{ seeded: Seeded }>({
  seeded: [
    async ({ btcStack }, use) => {
      const blockHash = await btcStack.node.rpc<string>("getblockhash", [1]);
      const to = await btcStack.node.walletRpc<string>("getnewaddress");
      const txid = await btcStack.node.walletRpc<string>("sendtoaddress", [to, 1]);
      await btcStack.node.mine(1);
      // A signed transaction that has not been broadcast yet.
      const raw = await btcStack.node.walletRpc<string>("createrawtransaction", [[], { [to]: 0.1 }]);
      const funded = await btcStack.node.walletRpc<{ hex: string }>("fundrawtransaction", [raw]);
      const signedHex = (await btcStack.node.walletRpc<{ hex: string }>("signrawtransactionwithwallet", [funded.hex])).hex;
      await use({ blockHash, txid, signedHex });
    },
    { scope: "file" },
  ],
});

async function rpc(stack: BtcStack, body: unknown, raw = false) {
  const response = await stack.request("/api/v1/btc/jsonrpc", { method: "POST", body: raw ? (body as string) : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & Record<number, unknown> };
}

describe("POST /api/v1/btc/jsonrpc: allowed methods (rules 1, 4)", () => {
  it("forwards each of the 15 allowed methods, alone and as one batch matched by id", async ({ btcStack: stack, seeded }) => {
    const { blockHash, txid, signedHex } = seeded;
    const calls: [string, unknown[]][] = [
      ["decoderawtransaction", [signedHex]],
      ["estimatesmartfee", [6]],
      ["getbestblockhash", []],
      ["getblock", [blockHash]],
      ["getblockchaininfo", []],
      ["getblockcount", []],
      ["getblockhash", [0]],
      ["getblockheader", [blockHash]],
      ["getblockstats", [1]],
      ["getdifficulty", []],
      ["getmempoolinfo", []],
      ["getrawtransaction", [txid, true]],
      ["gettxout", [txid, 0]],
      ["testmempoolaccept", [[signedHex]]],
      ["sendrawtransaction", [signedHex]],
    ];
    for (const [i, [method, params]] of calls.entries()) {
      const { status, body } = await rpc(stack, { jsonrpc: "1.0", id: `single-${i}`, method, params });
      expect({ method, status, error: body.error, id: body.id }).toEqual({ method, status: 200, error: null, id: `single-${i}` });
      expect(body).toHaveProperty("result");
    }
    const batch = await rpc(
      stack,
      calls.map(([method, params], i) => ({ jsonrpc: "1.0", id: i, method, params })),
    );
    expect(batch.status).toBe(200);
    const answers = batch.body as unknown as { id: number; error: unknown; result: unknown }[];
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(calls.map((_c, i) => i));
    expect(answers.find((a) => a.id === 5)?.result).toBe(await stack.node.rpc("getblockcount"));
  });

  it("reports gettxout of a spent or missing output as a null result with 200 (rule 9)", async ({ btcStack: stack, seeded }) => {
    const { txid } = seeded;
    expect(await rpc(stack, { id: 1, method: "gettxout", params: [txid, 99] })).toEqual({
      status: 200,
      body: { result: null, error: null, id: 1 },
    });
  });
});

describe("refused methods (rules 2, 3)", () => {
  it("refuses stop with 403 and -32601 without contacting the node: the node is still up", async ({ btcStack: stack }) => {
    const { status, body } = await rpc(stack, { jsonrpc: "1.0", id: "halt", method: "stop", params: [] });
    expect(status).toBe(403);
    expect(body).toEqual({ error: { code: -32601, message: expect.any(String) }, id: "halt" });
    expect(body).not.toHaveProperty("result");
    expect(await stack.node.rpc("getblockcount")).toBeGreaterThan(0);
  });

  it.for([
    "dumpprivkey",
    "getnewaddress",
    "sendtoaddress",
    "listreceivedbyaddress",
    "getbalance",
    "walletpassphrase",
    "importprivkey",
    "GETBLOCKCOUNT",
  ])("refuses %s with 403", async (method, { btcStack: stack }) => {
    expect((await rpc(stack, { id: 1, method, params: [] })).status).toBe(403);
  });

  it("refuses a whole batch when one call is disallowed, and forwards none of it", async ({ btcStack: stack }) => {
    const unsent = (
      await stack.node.walletRpc<{ hex: string }>("signrawtransactionwithwallet", [
        (
          await stack.node.walletRpc<{ hex: string }>("fundrawtransaction", [
            await stack.node.walletRpc<string>("createrawtransaction", [
              [],
              { [await stack.node.walletRpc<string>("getnewaddress")]: 0.2 },
            ]),
          ])
        ).hex,
      ])
    ).hex;
    const decoded = await stack.node.rpc<{ txid: string }>("decoderawtransaction", [unsent]);
    const { status, body } = await rpc(stack, [
      { id: 1, method: "sendrawtransaction", params: [unsent] },
      { id: 2, method: "dumpwallet", params: ["/tmp/x"] },
    ]);
    expect(status).toBe(403);
    expect((body.error as { code: number }).code).toBe(-32601);
    expect(await stack.node.rpc<string[]>("getrawmempool")).not.toContain(decoded.txid);
  });
});

describe("malformed requests (rules 5, 8)", () => {
  it("answers a body that is not JSON with 400 and -32700", async ({ btcStack: stack }) => {
    const { status, body } = await rpc(stack, "{not json", true);
    expect(status).toBe(400);
    expect((body.error as { code: number }).code).toBe(-32700);
    expect(body).not.toHaveProperty("result");
  });

  it("answers a missing or non-string method with 400 and -32600, echoing the id", async ({ btcStack: stack }) => {
    const missing = await rpc(stack, { id: "m1", params: [] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { code: -32600 }, id: "m1" });
    expect((await rpc(stack, { id: 2, method: 42, params: [] })).status).toBe(400);
  });

  it("answers an empty batch and one over 20 calls with 400 -32600, the empty one with its own message", async ({ btcStack: stack }) => {
    const empty = await rpc(stack, []);
    const missing = await rpc(stack, { id: 1, params: [] });
    expect(empty.status).toBe(400);
    expect((empty.body.error as { code: number }).code).toBe(-32600);
    expect((empty.body.error as { message: string }).message).not.toBe((missing.body.error as { message: string }).message);
    const tooMany = await rpc(
      stack,
      Array.from({ length: 21 }, (_v, i) => ({ id: i, method: "getblockcount", params: [] })),
    );
    expect(tooMany.status).toBe(400);
    expect((tooMany.body.error as { code: number }).code).toBe(-32600);
    const twenty = await rpc(
      stack,
      Array.from({ length: 20 }, (_v, i) => ({ id: i, method: "getblockcount", params: [] })),
    );
    expect(twenty.status).toBe(200);
  });

  it("answers a body nested too deep to re-encode with 400 -32600 in the JSON-RPC shape, echoing the id", async ({ btcStack: stack }) => {
    const depth = 200_000;
    const { status, body } = await rpc(stack, `{"id":"deep","method":"getblock","params":${"[".repeat(depth)}${"]".repeat(depth)}}`, true);
    expect(status).toBe(400);
    expect(body).toEqual({
      error: { code: -32600, message: "Invalid request: the body nests JSON more than 64 levels deep." },
      id: "deep",
    });
  });

  it("re-encodes the forwarded body: extra members dropped, answered as JSON-RPC 1.0 whatever the client sent", async ({
    btcStack: stack,
  }) => {
    const { status, body } = await rpc(stack, {
      jsonrpc: "2.0",
      id: 7,
      method: "getblockcount",
      params: [],
      wallet: "x",
      extra: { deep: true },
    });
    expect(status).toBe(200);
    expect(body).toEqual({ result: await stack.node.rpc("getblockcount"), error: null, id: 7 });
  });
});

describe("node answers (rules 4, 6, 7)", () => {
  it("answers a call the node refuses with 500 and the node's envelope and code, whatever the call", async ({ btcStack: stack }) => {
    expect(await rpc(stack, { id: "h", method: "getblockhash", params: [99_999] })).toEqual({
      status: 500,
      body: { result: null, error: { code: -8, message: "Block height out of range" }, id: "h" },
    });
    expect((await rpc(stack, { id: 1, method: "sendrawtransaction", params: ["00"] })).body).toMatchObject({
      result: null,
      error: { code: -22 },
    });
    expect((await rpc(stack, { id: 1, method: "getrawtransaction", params: ["ab".repeat(32)] })).body).toMatchObject({
      result: null,
      error: { code: -5 },
    });
  });

  it("keeps per-call errors inside a 200 batch", async ({ btcStack: stack }) => {
    const { status, body } = await rpc(stack, [
      { id: "ok", method: "getblockcount", params: [] },
      { id: "bad", method: "getblockhash", params: [99_999] },
    ]);
    expect(status).toBe(200);
    const answers = body as unknown as { id: string; error: { code: number } | null }[];
    expect(answers.find((a) => a.id === "ok")?.error).toBeNull();
    expect(answers.find((a) => a.id === "bad")?.error?.code).toBe(-8);
  });

  it("answers 502 with -32603 when the node is unreachable, and 500 when it is not configured", async ({ btcStack: stack }) => {
    const dead = await stack.startProxy({ BTC_RPC_URL: "http://127.0.0.1:1", BTC_RPC_USER: "u", BTC_RPC_PASSWORD: "p" });
    const call = (url: string) =>
      fetch(`${url}/api/v1/btc/jsonrpc`, { method: "POST", body: JSON.stringify({ id: "z", method: "getblockcount", params: [] }) });
    const unreachable = await call(dead.url);
    expect(unreachable.status).toBe(502);
    expect(await unreachable.json()).toEqual({ error: { code: -32603, message: "Could not connect to BTC node." }, id: "z" });
    const unconfigured = await stack.startProxy({});
    const notConfigured = await call(unconfigured.url);
    expect(notConfigured.status).toBe(500);
    expect(await notConfigured.json()).toMatchObject({ error: { code: -32603 }, id: "z" });
  });
});

describe("a node with its own batch limit (BTC_RPC_MAX_BATCH)", () => {
  it("sends a client batch of 20 to the node in chunks of the limit and answers all 20 as one array", async ({ btcStack: stack }) => {
    const counter = await startNodeFaultProxy({ chain: "bitcoin", upstream: stack.node.rpcUrl, seed: 1 });
    try {
      const { rpcUser, rpcPassword } = stack.node;
      const proxy = await stack.startProxy({
        BTC_RPC_URL: counter.url,
        BTC_RPC_USER: rpcUser,
        BTC_RPC_PASSWORD: rpcPassword,
        BTC_RPC_MAX_BATCH: "6",
      });
      const calls = Array.from({ length: 20 }, (_unused, height) => ({
        jsonrpc: "1.0",
        id: height,
        method: "getblockhash",
        params: [height],
      }));
      counter.resetCounters();
      const response = await fetch(`${proxy.url}/api/v1/btc/jsonrpc`, { method: "POST", body: JSON.stringify(calls) });
      const answers = (await response.json()) as { id: number; result: string }[];
      expect(response.status).toBe(200);
      expect(answers.map((answer) => answer.id)).toEqual(calls.map((call) => call.id));
      expect(answers[19]!.result).toBe(await stack.node.rpc("getblockhash", [19]));
      // 6 + 6 + 6 + 2.
      expect(counter.counters().requests).toBe(4);
    } finally {
      await counter.stop();
    }
  });
});
