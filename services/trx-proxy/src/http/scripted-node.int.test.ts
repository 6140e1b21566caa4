/**
 * Behaviours a healthy simulator cannot be made to show, at the proxy's internal edge against a scripted
 * java-tron stand-in: a hosted node's API key header, a client that leaves (its node call is
 * cancelled and the node stays in use), a block stream the node cuts.
 */
import type http from "node:http";
import { Writable } from "node:stream";
import { loadConfig } from "@chaingate/config";
import { createLogger } from "@chaingate/logger";
import { internalEdge, startScriptedHttpNode, TEST_INTERNAL_TOKEN, type ScriptedHttpNode } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { trxProxyConfigSchema } from "../config.ts";
import { createTrxProxy } from "../create-trx-proxy.ts";
import { trxProxyTest } from "../testing/trx-proxy-fixtures.ts";

/** A scripted Tron node: each call recorded by its path, with the headers the proxy sent. */
type ScriptedNode = ScriptedHttpNode<{ path: string; headers: http.IncomingHttpHeaders }>;
const startScriptedNode = () => startScriptedHttpNode((request) => ({ path: request.url ?? "", headers: request.headers }));

const answer = (response: http.ServerResponse, body: unknown) =>
  response.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
const ADDRESS = "TDsY1sDyBHxHqxU8pEhQvXYK45CdeTV2SV";
/** The account the gateway would have authenticated. */
const ACCOUNT_ID = 1;

interface ScriptedTrxStack {
  /** The proxy's first node, and the one it falls back to (which answers every call with {}). */
  node: ScriptedNode;
  fallback: ScriptedNode;
  /** The proxy's log lines, parsed. */
  lines: Array<Record<string, unknown>>;
  /** A call at the proxy's internal edge, as the gateway makes it for the account. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

const it = trxProxyTest.extend<{ scriptedTrxNodes: { node: ScriptedNode; fallback: ScriptedNode }; scriptedTrxStack: ScriptedTrxStack }>({
  /** The proxy's two scripted nodes: the first, and the one it falls back to. */
  scriptedTrxNodes: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const node = await startScriptedNode();
      const fallback = await startScriptedNode();
      fallback.behave((_call, response) => answer(response, {}));
      try {
        await use({ node, fallback });
      } finally {
        await Promise.all([node.close(), fallback.close()]);
      }
    },
    { scope: "file" },
  ],
  /** A trx-proxy in front of two scripted nodes, with a hosted node's API key. */
  scriptedTrxStack: [
    async ({ scriptedTrxNodes: { node, fallback } }, use) => {
      const lines: Array<Record<string, unknown>> = [];
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
      const edge = internalEdge(proxy);
      try {
        await use({ node, fallback, lines, request: (path, init = {}) => edge.request(ACCOUNT_ID, path, init) });
      } finally {
        await proxy.close();
      }
    },
    { scope: "file" },
  ],
});

describe("trx-proxy against a scripted node", () => {
  it("sends a hosted node's API key in TRON-PRO-API-KEY", async ({ scriptedTrxStack: { node, request } }) => {
    node.behave((_call, response) => answer(response, {}));
    expect(await (await request(`/api/v1/trx/account/${ADDRESS}`)).json()).toEqual([]);
    expect(node.calls.at(-1)).toMatchObject({ path: "/wallet/getaccount", headers: { "tron-pro-api-key": "bench-key-0001" } });
  });

  it("cancels the node call of a client that disconnects, and keeps using that node", async ({
    scriptedTrxStack: { node, fallback, request },
  }) => {
    let nodeSawClose = false;
    node.behave((_call, response) => response.on("close", () => (nodeSawClose = true)));
    const callsBefore = node.calls.length;
    const client = new AbortController();
    const pending = request(`/api/v1/trx/account/${ADDRESS}`, { signal: client.signal }).then((response) => response.text());
    await expect.poll(() => node.calls.length, { timeout: 5_000 }).toBe(callsBefore + 1);
    client.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => nodeSawClose, { timeout: 5_000 }).toBe(true);
    node.behave((_call, response) => answer(response, { address: "41", balance: 5 }));
    expect(await (await request(`/api/v1/trx/account/${ADDRESS}`)).json()).toEqual({ address: "41", balance: 5 });
    expect(fallback.calls).toEqual([]);
  });

  it("cuts the connection when the node cuts a block mid-stream, and logs it", async ({ scriptedTrxStack: { node, lines, request } }) => {
    node.behave(({ path }, response) => {
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
