import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, describe, expect } from "vitest";
import { freePort, startLitecoindRegtest, type LitecoindRegtest } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { bitcoin } from "./bitcoin.ts";
import { createNodeClient } from "../create-node-client.ts";
import type { NodeClient as BitcoinRpcClient } from "../node-client.ts";
import type { NodeClientOptions } from "../node-client-options.ts";
import { NodeAuthError, NodeNotConfiguredError, NodeRpcError, NodeUnreachableError } from "../node-errors.ts";

/** The Bitcoin configuration of the shared client, as the btc-proxy uses it. */
const createBitcoinRpcClient = (options: Omit<NodeClientOptions, "chain">): BitcoinRpcClient =>
  createNodeClient({ chain: bitcoin, ...options });

/** A loopback port nothing listens on: bound, then released. */
async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

async function collect(body: Readable): Promise<{ text: string; chunks: number }> {
  let chunks = 0;
  const parts: Buffer[] = [];
  for await (const chunk of body) {
    chunks++;
    parts.push(Buffer.from(chunk as Uint8Array));
  }
  return { text: Buffer.concat(parts).toString("utf8"), chunks };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

const clients: BitcoinRpcClient[] = [];
const make = (...args: Parameters<typeof createBitcoinRpcClient>) => {
  const created = createBitcoinRpcClient(...args);
  clients.push(created);
  return created;
};
afterAll(async () => {
  await Promise.all(clients.map((created) => created.close()));
});

/** The kit's litecoind with 101 blocks (spendable coinbase), and a client of it with the node's credentials. */
const it = integrationTest.extend<{ node: LitecoindRegtest; client: BitcoinRpcClient }>({
  node: [
    async ({ litecoind }, use) => {
      await litecoind.mine(101);
      await use(litecoind);
    },
    { scope: "file" },
  ],
  client: [
    async ({ node }, use) => {
      await use(make({ urls: [node.rpcUrl], auth: { user: node.rpcUser, password: node.rpcPassword } }));
    },
    { scope: "file" },
  ],
});

describe("createBitcoinRpcClient against litecoind -regtest", () => {
  it("returns results of read calls", async ({ node, client }) => {
    expect(await client.call<number>("getblockcount")).toBe(101);
    const hash = await client.call<string>("getblockhash", [101]);
    expect(hash).toBe(await node.rpc<string>("getbestblockhash"));
    const header = await client.call<{ height: number; hash: string }>("getblockheader", [hash]);
    expect(header).toMatchObject({ height: 101, hash });
  });

  it("classifies node errors with the node's code and message", async ({ node, client }) => {
    const outOfRange = await rejection(client.call("getblockhash", [1_000_000]));
    expect(outOfRange).toBeInstanceOf(NodeRpcError);
    expect(outOfRange).toMatchObject({
      code: "btc_node_rpc_error",
      rpcCode: -8,
      rpcMessage: "Block height out of range",
      retryable: false,
    });

    const unknownTx = await rejection(client.call("getrawtransaction", ["00".repeat(32)]));
    expect(unknownTx).toMatchObject({ rpcCode: -5 });

    const undecodable = await rejection(client.call("decoderawtransaction", ["zz"]));
    expect(undecodable).toMatchObject({ rpcCode: -22 });

    // A decodable transaction whose segwit input carries no signature: rejected by the mempool.
    const [utxo] = await node.walletRpc<Array<{ txid: string; vout: number; amount: number }>>("listunspent");
    const destination = await node.walletRpc<string>("getnewaddress", ["", "bech32"]);
    const unsigned = await node.rpc<string>("createrawtransaction", [[{ txid: utxo!.txid, vout: utxo!.vout }], { [destination]: 1 }]);
    const rejected = await rejection(client.call("sendrawtransaction", [unsigned]));
    expect(rejected).toMatchObject({ rpcCode: -26 });

    // Method-not-found arrives as HTTP 404 from the node and is still the node's error.
    expect(await rejection(client.call("nosuchmethod"))).toMatchObject({ rpcCode: -32601 });
  });

  it("reports wrong credentials as an auth error, not as an outage", async ({ node }) => {
    const wrong = make({ urls: [node.rpcUrl], auth: { user: node.rpcUser, password: "wrong" } });
    const error = await rejection(wrong.call("getblockcount"));
    expect(error).toBeInstanceOf(NodeAuthError);
    expect(error).toMatchObject({ code: "btc_node_auth_failed" });
  });

  it("takes credentials from the URL's user info", async ({ node }) => {
    const url = new URL(node.rpcUrl);
    url.username = node.rpcUser;
    url.password = node.rpcPassword;
    const withUrlAuth = make({ urls: [url.toString()] });
    expect(await withUrlAuth.call<number>("getblockcount")).toBeGreaterThanOrEqual(101);
    expect(withUrlAuth.upstreams()[0]!.url).not.toContain(node.rpcPassword);
  });

  it("fails over from a dead URL to the live one, and skips the dead one during its cool-down", async ({ node }) => {
    let clock = 1_000_000;
    const dead = await deadUrl();
    const failover = make({
      urls: [dead, node.rpcUrl],
      auth: { user: node.rpcUser, password: node.rpcPassword },
      coolDownMs: 30_000,
      now: () => clock,
    });
    expect(await failover.call<number>("getblockcount")).toBeGreaterThanOrEqual(101);
    const [deadState, liveState] = failover.upstreams();
    expect(deadState).toMatchObject({ url: dead, healthy: false, unhealthyUntil: 1_030_000 });
    expect(deadState!.lastError).toMatch(/ECONNREFUSED/);
    expect(liveState).toMatchObject({ healthy: true });

    // During the cool-down the dead URL is not tried first, so its state does not change.
    clock += 10_000;
    await failover.call("getblockcount");
    expect(failover.upstreams()[0]!.unhealthyUntil).toBe(1_030_000);

    // After the cool-down it is tried again (and fails again, so it gets a fresh cool-down).
    clock += 25_000;
    await failover.call("getblockcount");
    expect(failover.upstreams()[0]!.unhealthyUntil).toBe(clock + 30_000);
  });

  it("reports an outage as unreachable (retryable) when no URL answers", async () => {
    const urls = [await deadUrl(), await deadUrl()];
    const unreachable = make({ urls, auth: { user: "u", password: "p" } });
    const error = await rejection(unreachable.call("getblockcount"));
    expect(error).toBeInstanceOf(NodeUnreachableError);
    expect(error).toMatchObject({ code: "btc_node_unreachable", retryable: true });
    expect((error as NodeUnreachableError).attempts.map((attempt) => attempt.url)).toEqual(urls);
    await expect(unreachable.callRaw('{"jsonrpc":"1.0","id":1,"method":"getblockcount","params":[]}')).rejects.toBeInstanceOf(
      NodeUnreachableError,
    );
  });

  it("reports a missing URL or missing credentials as not configured", async ({ node }) => {
    await expect(make({ urls: [] }).call("getblockcount")).rejects.toBeInstanceOf(NodeNotConfiguredError);
    await expect(make({ urls: [node.rpcUrl] }).call("getblockcount")).rejects.toBeInstanceOf(NodeNotConfiguredError);
  });
});

// The same node and client: raw and streamed calls, cookies.
describe("createBitcoinRpcClient against litecoind -regtest", () => {
  it("streams getblock verbosity 2 without buffering and passes it through byte for byte", async ({ node, client }) => {
    // A block with a 300-output transaction: its verbosity-2 JSON spans many chunks.
    const outputs: Record<string, number> = {};
    for (let i = 0; i < 300; i++) outputs[await node.walletRpc<string>("getnewaddress", ["", "bech32"])] = 0.001;
    const txid = await node.walletRpc<string>("sendmany", ["", outputs]);
    const [blockHash] = await node.mine(1);

    const response = await client.callRaw(JSON.stringify({ jsonrpc: "1.0", id: "blk", method: "getblock", params: [blockHash, 2] }));
    expect(response.status).toBe(200);
    expect(response.contentType).toMatch(/^application\/json/);
    expect(response.url).toBe(node.rpcUrl);
    // callRaw resolves on the response headers: the body has not been read yet.
    expect(response.body.readableEnded).toBe(false);
    const { text, chunks } = await collect(response.body);
    expect(chunks).toBeGreaterThan(1);
    const envelope = JSON.parse(text) as { result: { hash: string; tx: Array<{ txid: string }> }; error: null; id: string };
    expect(envelope).toMatchObject({ error: null, id: "blk" });
    expect(envelope.result.hash).toBe(blockHash);
    expect(envelope.result.tx.map((tx) => tx.txid)).toContain(txid);
    expect(envelope.result).toEqual(await node.rpc("getblock", [blockHash, 2]));
  });

  it("passes node errors and batches through raw with the node's status", async ({ client }) => {
    const failed = await client.callRaw(JSON.stringify({ jsonrpc: "1.0", id: 9, method: "getblockhash", params: [1_000_000] }));
    expect(failed.status).toBe(500);
    expect(JSON.parse((await collect(failed.body)).text)).toEqual({
      result: null,
      error: { code: -8, message: "Block height out of range" },
      id: 9,
    });

    const batch = await client.callRaw(
      JSON.stringify([
        { jsonrpc: "1.0", id: "a", method: "getblockcount", params: [] },
        { jsonrpc: "1.0", id: "b", method: "getblockhash", params: [1_000_000] },
      ]),
    );
    expect(batch.status).toBe(200);
    const replies = JSON.parse((await collect(batch.body)).text) as Array<{ id: string; result: unknown; error: unknown }>;
    expect(replies.find((reply) => reply.id === "a")?.result).toBeGreaterThan(101);
    expect(replies.find((reply) => reply.id === "b")?.error).toEqual({ code: -8, message: "Block height out of range" });
  });

  it("streams a successful answer's result cut out of its envelope, and throws a refusal as the node's error, like call()", async ({
    node,
    client,
  }) => {
    const blockHash = await node.rpc<string>("getblockhash", [1]);
    const body = await client.callStreamed("getblock", [blockHash, 2]);
    const result = JSON.parse((await collect(body)).text) as { hash: string };
    expect(result).toEqual(await node.rpc("getblock", [blockHash, 2]));
    expect(result.hash).toBe(blockHash);
    const refused = await client.callStreamed("getblock", ["00".repeat(32), 2]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NodeRpcError);
    expect(refused).toMatchObject({ rpcCode: -5, method: "getblock" });
  });

  it("authenticates with a real node's cookie file, and re-reads it when the restarted node rotates it", async () => {
    const datadir = await mkdtemp(path.join(os.tmpdir(), "chaingate-cookie-"));
    // The node's shutdown waits for idle keep-alive connections: let it drop ours after 1 s.
    const options = { cookieAuth: true, datadir, rpcPort: await freePort(), extraArgs: ["-rpcservertimeout=1"] };
    let cookieNode = await startLitecoindRegtest(options);
    try {
      const cookieFile = cookieNode.cookieFile!;
      const cookieClient = make({ urls: [cookieNode.rpcUrl], auth: { cookieFile } });
      const height = await cookieClient.call<number>("getblockcount");
      expect(height).toBeGreaterThanOrEqual(0);
      const firstCookie = await readFile(cookieFile, "utf8");
      await cookieNode.stop();
      cookieNode = await startLitecoindRegtest(options);
      expect(await readFile(cookieFile, "utf8")).not.toBe(firstCookie);
      // The client still holds the old cookie: the node answers 401 once, the client re-reads.
      expect(await cookieClient.call<number>("getblockcount")).toBe(height);
    } finally {
      await cookieNode.stop();
      await rm(datadir, { recursive: true, force: true });
    }
  });

  it("raw calls fail over too", async ({ node }) => {
    const failover = make({ urls: [await deadUrl(), node.rpcUrl], auth: { user: node.rpcUser, password: node.rpcPassword } });
    const response = await failover.callRaw(JSON.stringify({ jsonrpc: "1.0", id: 1, method: "getblockcount", params: [] }));
    expect(response.url).toBe(node.rpcUrl);
    expect(JSON.parse((await collect(response.body)).text)).toMatchObject({ error: null, id: 1 });
  });
});
