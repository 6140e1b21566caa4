/**
 * The shared client for JSON-RPC 2.0 (Ethereum) and plain HTTP JSON (java-tron) nodes, against a
 * scripted HTTP server: credentials, refusals by the chain's table, java-tron's HTTP API.
 */
import { describe, expect, it } from "vitest";
import { nodeFailureDetails } from "./node-errors.ts";
import { bitcoin } from "./chains/bitcoin.ts";
import { ethereum } from "./chains/ethereum.ts";
import { tron } from "./chains/tron.ts";
import { createNodeClient } from "./create-node-client.ts";
import { json, useScriptedNodes } from "./testing/scripted-node-server.ts";

describe("createNodeClient for JSON-RPC 2.0 and plain HTTP JSON nodes", () => {
  const { serve, make } = useScriptedNodes(createNodeClient);

  it("sends 2.0 calls without credentials by default, or with an API-key header", async () => {
    const seen: { authorization?: string; apiKey?: string; body: string }[] = [];
    const url = await serve((request, body, response) => {
      seen.push({ authorization: request.headers.authorization, apiKey: request.headers["tron-pro-api-key"] as string | undefined, body });
      json(response, 200, { jsonrpc: "2.0", id: (JSON.parse(body) as { id: number }).id, result: "0x7a69" });
    });
    expect(await make({ chain: ethereum, urls: [url] }).call("eth_chainId")).toBe("0x7a69");
    await make({ chain: ethereum, urls: [url], auth: { apiKeyHeader: "TRON-PRO-API-KEY", apiKey: "k-123" } }).call("eth_chainId");
    expect(seen[0]).toEqual({
      authorization: undefined,
      apiKey: undefined,
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    });
    expect(seen[1]!.apiKey).toBe("k-123");
  });

  it("classifies a 2.0 refusal with the chain's table", async () => {
    const url = await serve((_request, body, response) =>
      json(response, 200, {
        jsonrpc: "2.0",
        id: (JSON.parse(body) as { id: number }).id,
        error: { code: -32602, message: "invalid argument 0" },
      }),
    );
    const error = await make({ chain: ethereum, urls: [url] })
      .call("eth_getBalance", ["0x0"])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "eth_node_rpc_error", rpcCode: -32602, reason: "invalid_argument" });
    expect(nodeFailureDetails(error)).toEqual({ reason: "invalid_argument", node_code: -32602, node_message: "invalid argument 0" });
  });

  it("talks java-tron's HTTP API: JSON bodies to paths, GET without a body, the Error member as a refusal, failover on a 5xx", async () => {
    const seen: string[] = [];
    const broken = await serve((_request, _body, response) => response.writeHead(502, { "content-type": "text/plain" }).end("bad gateway"));
    const node = await serve((request, body, response) => {
      seen.push(`${request.method} ${request.url} ${body}`);
      if (request.url === "/wallet/getaccount")
        return json(
          response,
          200,
          body.includes("bad") ? { Error: "class org.tron.core.exception.BadItemException : Invalid address" } : { balance: 12 },
        );
      json(response, 200, { blockID: "00ab" });
    });
    const client = make({ chain: tron, urls: [broken, node] });
    expect(await client.request("/wallet/getaccount", { body: { address: "TXYZ", visible: true } })).toEqual({ balance: 12 });
    expect(await client.request("/wallet/getnowblock")).toEqual({ blockID: "00ab" });
    const refused = await client.request("/wallet/getaccount", { body: { address: "bad" } }).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: "trx_node_rpc_error", method: "/wallet/getaccount", reason: "invalid_argument" });
    expect(seen).toEqual([
      'POST /wallet/getaccount {"address":"TXYZ","visible":true}',
      "GET /wallet/getnowblock ",
      'POST /wallet/getaccount {"address":"bad"}',
    ]);
    expect(client.upstreams()[0]).toMatchObject({ healthy: false, lastError: expect.stringContaining("502") });
  });

  it("reports a chain that needs no credentials as configured without them, and Bitcoin as not configured", async () => {
    const url = await serve((_request, _body, response) => json(response, 200, { jsonrpc: "2.0", id: 1, result: 1 }));
    expect(await make({ chain: tron, urls: [url] }).call("eth_blockNumber")).toBe(1);
    await expect(make({ chain: bitcoin, urls: [url] }).call("getblockcount")).rejects.toMatchObject({
      code: "btc_node_not_configured",
      reason: "not_configured",
    });
  });
});
