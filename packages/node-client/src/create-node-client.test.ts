/**
 * Node behaviours litecoind 0.21 cannot show (JSON-RPC 2.0 replies of Bitcoin Core 28+, an
 * overloaded node's 503, cookie rotation, a hung node), against a scripted HTTP server
 * (testing/scripted-node-server.ts). Cancellation and the URLs the client shows are in
 * create-node-client-cancellation-and-urls.test.ts; other chains' nodes in create-node-client-jsonrpc2.test.ts.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bitcoin } from "./chains/bitcoin.ts";
import { createNodeClient } from "./create-node-client.ts";
import type { NodeClient as BitcoinRpcClient } from "./node-client.ts";
import type { NodeClientOptions } from "./node-client-options.ts";
import { NodeRpcError, NodeUnreachableError } from "./node-errors.ts";
import { collectAndDiscard, json, useScriptedNodes } from "./testing/scripted-node-server.ts";

/** The Bitcoin configuration of the shared client, as the btc-proxy uses it. */
const createBitcoinRpcClient = (options: Omit<NodeClientOptions, "chain">): BitcoinRpcClient =>
  createNodeClient({ chain: bitcoin, ...options });

describe("createBitcoinRpcClient response handling", () => {
  const { serve, make } = useScriptedNodes(createBitcoinRpcClient);
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "chaingate-rpc-client-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const auth = { user: "u", password: "p" };

  it("reads JSON-RPC 2.0 errors answered with HTTP 200 (Bitcoin Core 28+)", async () => {
    const url = await serve((_request, body, response) => {
      const { id } = JSON.parse(body) as { id: number };
      json(response, 200, { jsonrpc: "2.0", error: { code: -5, message: "Block not found" }, id });
    });
    const error = await make({ urls: [url], auth })
      .call("getblock", ["00"])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NodeRpcError);
    expect(error).toMatchObject({ rpcCode: -5, rpcMessage: "Block not found", method: "getblock" });
  });

  it("reads JSON-RPC 2.0 results without an error member", async () => {
    const url = await serve((_request, body, response) =>
      json(response, 200, { jsonrpc: "2.0", result: 7, id: (JSON.parse(body) as { id: number }).id }),
    );
    expect(await make({ urls: [url], auth }).call("getblockcount")).toBe(7);
  });

  it("sends basic auth and a JSON-RPC 1.0 body", async () => {
    let seen: { authorization?: string; body?: unknown } = {};
    const url = await serve((request, body, response) => {
      seen = { authorization: request.headers.authorization, body: JSON.parse(body) };
      json(response, 200, { result: 1, error: null, id: 1 });
    });
    await make({ urls: [url], auth }).call("getblockhash", [5]);
    expect(seen.authorization).toBe(`Basic ${Buffer.from("u:p").toString("base64")}`);
    expect(seen.body).toMatchObject({ jsonrpc: "1.0", method: "getblockhash", params: [5] });
  });

  it("treats an overloaded node's 503 text answer as down and fails over", async () => {
    const busy = await serve((_request, _body, response) =>
      response.writeHead(503, { "content-type": "text/html" }).end("Work queue depth exceeded"),
    );
    const good = await serve((_request, _body, response) => json(response, 200, { result: 42, error: null, id: 1 }));
    const client = make({ urls: [busy, good], auth });
    expect(await client.call("getblockcount")).toBe(42);
    expect(client.upstreams()[0]).toMatchObject({ healthy: false });
    expect(client.upstreams()[0]!.lastError).toContain("503");
    const raw = await make({ urls: [busy, good], auth }).callRaw("{}");
    expect(raw.url).toBe(good);
    await collectAndDiscard(raw.body);
  });

  it("times out a hung node and reports it unreachable", async () => {
    const hung = await serve(() => {});
    const started = Date.now();
    const error = await make({ urls: [hung], auth, timeoutMs: 300 })
      .call("getblockcount")
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NodeUnreachableError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("re-reads a rotated cookie file once after a 401", async () => {
    const cookieFile = path.join(dir, ".cookie");
    let current = "__cookie__:first";
    const url = await serve((request, _body, response) => {
      if (request.headers.authorization !== `Basic ${Buffer.from(current).toString("base64")}`) return json(response, 401, null);
      json(response, 200, { result: current, error: null, id: 1 });
    });
    await writeFile(cookieFile, "__cookie__:first\n");
    const client = make({ urls: [url], auth: { cookieFile } });
    expect(await client.call("x")).toBe("__cookie__:first");
    // The node restarted and wrote a new cookie.
    current = "__cookie__:second";
    await writeFile(cookieFile, "__cookie__:second");
    expect(await client.call("x")).toBe("__cookie__:second");
  });
});
