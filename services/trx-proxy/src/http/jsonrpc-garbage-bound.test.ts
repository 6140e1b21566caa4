/**
 * POST /api/v1/trx/jsonrpc streams the node's answer through the garbage bound, as the btc- and
 * eth-proxy do: a block batch of megabytes asks for a minor GC every GC_NUDGE_BYTES, so dead read
 * buffers cannot pile up (see @chaingate/http's bound-buffer-garbage.ts). At the trx-proxy's own
 * HTTP edge, against a scripted java-tron /jsonrpc; `gc` is stubbed, the test runner has none.
 */
import http from "node:http";
import { loadConfig } from "@chaingate/config";
import { serveHttpApp, type ServedApp } from "@chaingate/service-kit";
import { createNodeClient, tron } from "@chaingate/node-client";
import { silentLogger } from "@chaingate/testing";
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { trxProxyConfigSchema } from "../config.ts";
import { createTrxProxyApp } from "../create-trx-proxy.ts";

const RESULT_BYTES = 4 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, "a");
const globals = globalThis as { gc?: unknown };
const originalGc = globals.gc;

let node: http.Server;
let nodeUrl: string;
const proxies: ServedApp[] = [];

beforeAll(async () => {
  // java-tron's /jsonrpc answering one large result, written in 64 KB chunks.
  node = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"jsonrpc":"2.0","id":1,"result":"');
      for (let written = 0; written < RESULT_BYTES; written += CHUNK.length) response.write(CHUNK);
      response.end('"}');
    });
  });
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  nodeUrl = `http://127.0.0.1:${(node.address() as { port: number }).port}`;
});
afterEach(async () => {
  globals.gc = originalGc;
  for (const proxy of proxies.splice(0)) await proxy.close();
});
afterAll(async () => {
  node.closeAllConnections();
  await new Promise((resolve) => node.close(resolve));
});

/** A trx-proxy with GC_NUDGE_BYTES = `nudgeBytes`; the GC requests its /jsonrpc answer made. */
async function postLargeAnswer(nudgeBytes: number): Promise<{ status: number; resultBytes: number; gcCalls: unknown[] }> {
  const gcCalls: unknown[] = [];
  globals.gc = (options: unknown) => gcCalls.push(options);
  const client = createNodeClient({ chain: tron, urls: [nodeUrl] });
  const config = { ...loadConfig("trx-proxy", trxProxyConfigSchema, { TRON_NODE_URL: nodeUrl }), GC_NUDGE_BYTES: nudgeBytes };
  const proxy = await serveHttpApp(
    createTrxProxyApp(client, config, silentLogger),
    { host: "127.0.0.1", port: 0, logger: silentLogger },
    () => client.close(),
  );
  proxies.push(proxy);
  const response = await fetch(`${proxy.url}/api/v1/trx/jsonrpc`, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["latest", true] }),
  });
  const body = (await response.json()) as { result: string };
  return { status: response.status, resultBytes: body.result.length, gcCalls };
}

describe("trx-proxy POST /jsonrpc and the garbage bound", () => {
  it("asks for a minor GC every GC_NUDGE_BYTES of a streamed answer, which arrives whole", async () => {
    const { status, resultBytes, gcCalls } = await postLargeAnswer(1024 * 1024);
    expect(status).toBe(200);
    expect(resultBytes).toBe(RESULT_BYTES);
    expect(gcCalls.length).toBeGreaterThanOrEqual(3);
    expect(gcCalls[0]).toEqual({ type: "minor", execution: "async" });
  });

  it("asks for none with GC_NUDGE_BYTES=0", async () => {
    const { status, resultBytes, gcCalls } = await postLargeAnswer(0);
    expect(status).toBe(200);
    expect(resultBytes).toBe(RESULT_BYTES);
    expect(gcCalls).toEqual([]);
  });
});
