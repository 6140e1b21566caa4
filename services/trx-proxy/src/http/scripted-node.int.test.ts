/**
 * Behaviours a healthy simulator cannot be made to show, at the proxy's internal edge against a scripted
 * java-tron stand-in: a hosted node's API key header, a client that leaves (its node call is
 * cancelled and the node stays in use), a block stream the node cuts.
 */
import http from "node:http";
import { Writable } from "node:stream";
import { loadConfig } from "@chaingate/config";
import { createLogger } from "@chaingate/logger";
import { internalEdge, TEST_INTERNAL_TOKEN, type InternalEdge } from "@chaingate/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trxProxyConfigSchema } from "../config.ts";
import { createTrxProxy } from "../create-trx-proxy.ts";

type Behaviour = (path: string, response: http.ServerResponse) => void;

interface ScriptedNode {
  url: string;
  calls: Array<{ path: string; headers: http.IncomingHttpHeaders }>;
  behave(behaviour: Behaviour): void;
  server: http.Server;
}

async function startScriptedNode(): Promise<ScriptedNode> {
  let behaviour: Behaviour = (_path, response) => response.writeHead(500).end();
  const calls: ScriptedNode["calls"] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      calls.push({ path: request.url ?? "", headers: request.headers });
      behaviour(request.url ?? "", response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, calls, server, behave: (next) => (behaviour = next) };
}

const answer = (response: http.ServerResponse, body: unknown) =>
  response.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
const ADDRESS = "TDsY1sDyBHxHqxU8pEhQvXYK45CdeTV2SV";
/** The account the gateway would have authenticated. */
const ACCOUNT_ID = 1;

describe("trx-proxy against a scripted node", () => {
  let node: ScriptedNode;
  let fallback: ScriptedNode;
  let edge: InternalEdge;
  const lines: Array<Record<string, unknown>> = [];
  const closers: Array<() => Promise<void>> = [];
  const request = (path: string, init: RequestInit = {}) => edge.request(ACCOUNT_ID, path, init);

  beforeAll(async () => {
    node = await startScriptedNode();
    fallback = await startScriptedNode();
    fallback.behave((_path, response) => answer(response, {}));
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const env = {
      PORT: "0",
      TRON_NODE_URL: `${node.url},${fallback.url}`,
      TRON_NODE_API_KEY: "bench-key-0001",
      INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    };
    const proxy = await createTrxProxy(
      loadConfig("trx-proxy", trxProxyConfigSchema, env),
      createLogger({ service: "trx-proxy", destination, level: "info" }),
    );
    edge = internalEdge(proxy);
    closers.push(
      () => proxy.close(),
      ...[node, fallback].map((scripted) => async () => {
        scripted.server.closeAllConnections();
        await new Promise((resolve) => scripted.server.close(resolve));
      }),
    );
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("sends a hosted node's API key in TRON-PRO-API-KEY", async () => {
    node.behave((_path, response) => answer(response, {}));
    expect(await (await request(`/api/v1/trx/account/${ADDRESS}`)).json()).toEqual([]);
    expect(node.calls.at(-1)).toMatchObject({ path: "/wallet/getaccount", headers: { "tron-pro-api-key": "bench-key-0001" } });
  });

  it("cancels the node call of a client that disconnects, and keeps using that node", async () => {
    let nodeSawClose = false;
    node.behave((_path, response) => response.on("close", () => (nodeSawClose = true)));
    const callsBefore = node.calls.length;
    const client = new AbortController();
    const pending = request(`/api/v1/trx/account/${ADDRESS}`, { signal: client.signal }).then((response) => response.text());
    await expect.poll(() => node.calls.length, { timeout: 5_000 }).toBe(callsBefore + 1);
    client.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => nodeSawClose, { timeout: 5_000 }).toBe(true);
    node.behave((_path, response) => answer(response, { address: "41", balance: 5 }));
    expect(await (await request(`/api/v1/trx/account/${ADDRESS}`)).json()).toEqual({ address: "41", balance: 5 });
    expect(fallback.calls).toEqual([]);
  });

  it("cuts the connection when the node cuts a block mid-stream, and logs it", async () => {
    node.behave((path, response) => {
      if (path === "/wallet/getblock") return answer(response, { blockID: "00", block_header: { raw_data: { number: 5 } } });
      if (path === "/wallet/getblockbynum") {
        // The first block whole, the second cut.
        if (node.calls.filter((call) => call.path === "/wallet/getblockbynum").length === 1) return answer(response, { blockID: "05" });
        response.writeHead(200, { "content-type": "application/json" }).write('{"blockID":"04","transactions":[');
        setTimeout(() => response.destroy(), 50);
      }
    });
    const response = await request("/api/v1/trx/block/latest/2");
    const received = await response.text().then(
      (text) => {
        try {
          JSON.parse(text);
          return "a whole answer";
        } catch {
          return "a cut body";
        }
      },
      () => "a cut body",
    );
    expect(received).toBe("a cut body");
    await expect
      .poll(() => lines.some((line) => line.message === "a block stream failed after the answer started; connection cut"))
      .toBe(true);
  });
});
