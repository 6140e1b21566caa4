/**
 * The POST /jsonrpc handler every proxy mounts, over HTTP against a scripted node client: what the
 * client receives, and that a large streamed answer is counted by the garbage bound.
 */
import type { Server } from "node:http";
import { Readable } from "node:stream";
import { createBufferGarbageBound } from "@chaingate/http";
import { createLogger } from "@chaingate/logger";
import { ethereum, NodeNotConfiguredError, NodeUnreachableError } from "@chaingate/node-client";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcProxyPolicyOptions } from "./jsonrpc-proxy-policy.ts";
import { jsonRpcBody, postJsonRpc, type JsonRpcBatchSettings } from "./post-jsonrpc.ts";
import type { ProxyRoute } from "./proxy-route.ts";
import { scriptedNodeClient } from "./scripted-node-client.ts";

const rules: JsonRpcProxyPolicyOptions = {
  allowedMethods: ["eth_blockNumber", "eth_getBlockByNumber"],
  forwardedVersion: "2.0",
  maxBatchCalls: 5,
  paramsRequired: false,
  allowedDescription: "the read methods",
};
const logger = createLogger({ service: "test", level: "silent" });
const globals = globalThis as { gc?: unknown };
const originalGc = globals.gc;
const servers: Server[] = [];

afterEach(async () => {
  globals.gc = originalGc;
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Serves the handler at /jsonrpc; `post` sends a body and reads the answer. */
async function serve(route: ProxyRoute, settings?: JsonRpcBatchSettings) {
  const app = express();
  app.post("/jsonrpc", jsonRpcBody("1mb"), postJsonRpc(route, rules, settings));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/jsonrpc`;
  return async (body: unknown) => {
    const response = await fetch(url, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
    return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
  };
}

describe("postJsonRpc", () => {
  it("streams a large node answer through unchanged, asking for a minor GC every threshold of bytes", async () => {
    const gcCalls: unknown[] = [];
    globals.gc = (options: unknown) => gcCalls.push(options);
    const chunk = Buffer.alloc(64 * 1024, "a");
    const chunks = 64; // 4 MB of result
    const { node } = scriptedNodeClient(async () => ({
      status: 200,
      contentType: "application/json; charset=utf-8",
      url: "http://node",
      body: Readable.from(
        (function* () {
          yield Buffer.from('{"jsonrpc":"2.0","id":1,"result":"');
          for (let i = 0; i < chunks; i++) yield chunk;
          yield Buffer.from('"}');
        })(),
      ),
    }));
    const post = await serve({ node, logger, garbageBound: createBufferGarbageBound(1024 * 1024) });
    const answer = await post({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["latest", true] });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe("application/json; charset=utf-8");
    expect((JSON.parse(answer.text) as { result: string }).result).toHaveLength(chunks * chunk.length);
    expect(gcCalls.length).toBeGreaterThanOrEqual(3);
    expect(new Set(gcCalls.map((call) => JSON.stringify(call)))).toEqual(new Set([JSON.stringify({ type: "minor", execution: "async" })]));
  });

  it("refuses by the rules before the node is contacted, with the batch cap of the settings", async () => {
    const { node, sent } = scriptedNodeClient(() => Promise.reject(new Error("must not be called")));
    const post = await serve({ node, logger }, { maxBatchCalls: 2 });
    const refused = await post({ jsonrpc: "2.0", id: 7, method: "eth_sendTransaction", params: [] });
    expect(refused).toMatchObject({ status: 403, contentType: "application/json" });
    expect(JSON.parse(refused.text)).toEqual({
      error: { code: -32601, message: 'Method not allowed: "eth_sendTransaction" is not one of the read methods' },
      id: 7,
    });
    const call = { jsonrpc: "2.0", method: "eth_blockNumber" };
    expect(JSON.parse((await post([call, call, call])).text)).toEqual({
      error: { code: -32600, message: "Invalid request: the batch has 3 calls; at most 2 are allowed." },
      id: null,
    });
    expect(JSON.parse((await post("{")).text)).toMatchObject({ error: { code: -32700 }, id: null });
    expect(sent).toEqual([]);
  });

  it("answers an unreachable node 502 and one not configured 500, naming the chain's node", async () => {
    const call = { jsonrpc: "2.0", id: "x", method: "eth_blockNumber" };
    const unreachable = await serve({
      node: scriptedNodeClient(() => Promise.reject(new NodeUnreachableError(ethereum, []))).node,
      logger,
    });
    const down = await unreachable(call);
    expect(down.status).toBe(502);
    expect(JSON.parse(down.text)).toEqual({ error: { code: -32603, message: "Could not connect to ETH node." }, id: "x" });
    const unconfigured = await serve({
      node: scriptedNodeClient(() => Promise.reject(new NodeNotConfiguredError(ethereum, "no node URL"))).node,
      logger,
    });
    const missing = await unconfigured(call);
    expect(missing.status).toBe(500);
    expect(JSON.parse(missing.text)).toEqual({
      error: { code: -32603, message: "The ETH node is not configured or refused the proxy's credentials." },
      id: "x",
    });
  });
});
