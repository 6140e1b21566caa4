/**
 * The `bitcoin-core` npm client, unmodified, pointed at the proxy's /api/v1/btc/jsonrpc with the
 * headers the gateway adds (the client sets them as it would set X-API-Key): results, a verbosity-2 block, a batch, and errors with their codes. The client
 * reads an error body only when Content-Type is exactly `application/json` (what bitcoind sends).
 */
import Client from "bitcoin-core";
import { expect } from "vitest";
import { btcProxyTest } from "../testing/btc-proxy-fixtures.ts";

const it = btcProxyTest.extend<{ client: Client }>({
  /** bitcoin-core pointed at the proxy's JSON-RPC route with the headers the gateway adds. */
  client: [
    async ({ btcStack }, use) =>
      use(new Client({ host: `${btcStack.url}/api/v1/btc/jsonrpc`, headers: btcStack.headers, logger: quietLogger() })),
    { scope: "file" },
  ],
});

/** bitcoin-core logs every request through debugnyan; a logger that drops them. */
function quietLogger() {
  const drop = () => undefined;
  return { debug: drop, info: drop, warn: drop, error: drop, trace: drop, fatal: drop, child: () => quietLogger() };
}

it("reads getblockchaininfo and a verbosity-2 block", async ({ btcStack: stack, client }) => {
  const info = (await client.command("getblockchaininfo")) as { chain: string; blocks: number; bestblockhash: string };
  expect(info.chain).toBe("regtest");
  expect(info.blocks).toBe(await stack.node.rpc("getblockcount"));
  const block = (await client.command("getblock", info.bestblockhash, 2)) as { hash: string; tx: { txid: string; vout: unknown[] }[] };
  expect(block.hash).toBe(info.bestblockhash);
  expect(block.tx[0]).toMatchObject({ txid: expect.stringMatching(/^[0-9a-f]{64}$/), vout: expect.any(Array) });
});

it("answers a batch call by call, a node refusal inside it as that call's error", async ({ btcStack: stack, client }) => {
  const answers = (await client.command([
    { method: "getblockcount", parameters: [] },
    { method: "getblockhash", parameters: [0] },
    { method: "getblockhash", parameters: [1_000_000] },
  ])) as unknown[];
  expect(answers[0]).toBe(await stack.node.rpc("getblockcount"));
  expect(answers[1]).toBe(await stack.node.rpc("getblockhash", [0]));
  expect(answers[2]).toMatchObject({ name: "RpcError", code: -8 });
});

it("reaches the caller with -32601 for a refused wallet method", async ({ client }) => {
  await expect(client.command("getbalance")).rejects.toMatchObject({
    name: "RpcError",
    code: -32601,
    message: expect.stringContaining("Method not allowed"),
  });
  await expect(client.command("dumpprivkey", "x")).rejects.toMatchObject({ code: -32601 });
});

it("reaches the caller with the node's own code for a node refusal (-22)", async ({ client }) => {
  await expect(client.command("decoderawtransaction", "zz")).rejects.toMatchObject({
    name: "RpcError",
    code: -22,
    message: expect.stringContaining("TX decode failed"),
  });
});

it("answers with exactly the node's content type", async ({ btcStack: stack }) => {
  for (const body of [
    { id: 1, method: "getblockcount", params: [] },
    { id: 1, method: "stop", params: [] },
    { id: 1, method: "getblockhash", params: [-1] },
    "{",
  ]) {
    const response = await stack.request("/api/v1/btc/jsonrpc", {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    expect(response.headers.get("content-type")).toBe("application/json");
  }
});
