/**
 * Issue 9, "abandoned requests and swallowed errors", at the proxy's internal edge, against scripted
 * Bitcoin nodes (a hung node, a node that cuts its body, a node answering nonsense): behaviours a
 * healthy litecoind cannot be made to show.
 */
import type http from "node:http";
import { Writable } from "node:stream";
import { loadConfig } from "@chaingate/config";
import { serveHttpApp, type ServedApp } from "@chaingate/service-kit";
import { createLogger } from "@chaingate/logger";
import { bitcoin, createNodeClient, type NodeClient } from "@chaingate/node-client";
import { internalEdge, startScriptedHttpNode, TEST_INTERNAL_TOKEN, type ScriptedHttpNode } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { btcProxyConfigSchema } from "../config.ts";
import { createBtcProxy, createBtcProxyApp } from "../create-btc-proxy.ts";
import { btcProxyTest } from "../testing/btc-proxy-fixtures.ts";

/** The account the gateway would have authenticated. */
const ACCOUNT_ID = 1;

/** A scripted Bitcoin node: each call recorded by its JSON-RPC method. */
type ScriptedNode = ScriptedHttpNode<string>;
const startScriptedNode = () => startScriptedHttpNode((_request, body) => (JSON.parse(body) as { method: string }).method);

const answer = (response: http.ServerResponse, result: unknown) =>
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result, error: null, id: 1 }));

/** Log lines of the proxy, parsed. */
function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ service: "btc-proxy", destination, level: "info" }), lines };
}

interface ScriptedBtcStack {
  /** The proxy's first node, and the one it falls back to (which answers every call). */
  node: ScriptedNode;
  fallback: ScriptedNode;
  /** The proxy's log lines. */
  log: ReturnType<typeof recordingLogger>;
  /** A call at the proxy's internal edge, as the gateway makes it for the account. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

const it = btcProxyTest.extend<{
  scriptedBtcNodes: { node: ScriptedNode; fallback: ScriptedNode };
  scriptedBtcStack: ScriptedBtcStack;
  brokenBtcProxy: { proxy: ServedApp; log: ReturnType<typeof recordingLogger> };
}>({
  /** The proxy's two scripted nodes: the first, and the one it falls back to. */
  scriptedBtcNodes: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const node = await startScriptedNode();
      const fallback = await startScriptedNode();
      fallback.behave((_method, response) => answer(response, { bestblockhash: "ff", blocks: 1 }));
      try {
        await use({ node, fallback });
      } finally {
        await Promise.all([node.close(), fallback.close()]);
      }
    },
    { scope: "file" },
  ],
  /** A btc-proxy in front of two scripted nodes. */
  scriptedBtcStack: [
    async ({ scriptedBtcNodes: { node, fallback } }, use) => {
      const log = recordingLogger();
      const env = {
        PORT: "0",
        BTC_RPC_URL: `${node.url},${fallback.url}`,
        BTC_RPC_USER: "u",
        BTC_RPC_PASSWORD: "p",
        INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      };
      const proxy = await createBtcProxy(loadConfig("btc-proxy", btcProxyConfigSchema, env), log.logger);
      const edge = internalEdge(proxy);
      try {
        await use({ node, fallback, log, request: (path, init = {}) => edge.request(ACCOUNT_ID, path, init) });
      } finally {
        await proxy.close();
      }
    },
    { scope: "file" },
  ],
  /** A btc-proxy whose node client fails in a way no node failure looks like. */
  brokenBtcProxy: [
    // eslint-disable-next-line no-empty-pattern -- as above
    async ({}, use) => {
      const log = recordingLogger();
      const unconfigured = createNodeClient({ chain: bitcoin, urls: [] });
      const broken: NodeClient = {
        ...unconfigured,
        callRaw: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'status')")),
      };
      const proxy = await serveHttpApp(
        createBtcProxyApp(broken, { JSONRPC_BODY_LIMIT: "1mb", GC_NUDGE_BYTES: 0 }, log.logger),
        { host: "127.0.0.1", port: 0, logger: log.logger },
        () => unconfigured.close(),
      );
      try {
        await use({ proxy, log });
      } finally {
        await proxy.close();
      }
    },
    { scope: "file" },
  ],
});

describe("btc-proxy: abandoned requests and unexpected failures", () => {
  it("cancels the node call of a client that disconnects, and keeps using that node", async ({
    scriptedBtcStack: { node, fallback, request },
  }) => {
    for (const [path, method] of [
      ["/api/v1/btc/block/best", "getblockchaininfo"],
      [`/api/v1/btc/block/hash/${"ab".repeat(32)}`, "getblock"],
    ] as const) {
      let nodeSawClose = false;
      node.behave((_method, response) => {
        // A node that starts an answer and then takes its time (a block being read from disk).
        if (method === "getblock") response.writeHead(200, { "content-type": "application/json" }).write('{"result":{"tx":[');
        response.on("close", () => (nodeSawClose = true));
      });
      const callsBefore = node.calls.length;
      const client = new AbortController();
      const pending = request(path, { signal: client.signal }).then((response) => response.text());
      await expect.poll(() => node.calls.length, { timeout: 5_000 }).toBe(callsBefore + 1);
      client.abort();
      await expect(pending).rejects.toThrow();
      // The proxy let go of the node's connection: the call was cancelled, not left to time out.
      await expect.poll(() => nodeSawClose, { timeout: 5_000 }).toBe(true);
      expect(node.calls.at(-1)).toBe(method);
    }
    // The node was not marked down for it: the next call goes to it, not to the fallback.
    node.behave((_method, response) => answer(response, { bestblockhash: "aa", blocks: 7 }));
    expect(await (await request("/api/v1/btc/block/best")).json()).toEqual({ hash: "aa", height: 7 });
    expect(fallback.calls).toEqual([]);
  });

  it("answers a fault of its own as an internal error and logs it, not as a node outage", async ({
    scriptedBtcStack: { node, request, log },
  }) => {
    // A node answering null where an object is due makes the handler fail: a bug to see in the logs.
    node.behave((_method, response) => answer(response, null));
    const response = await request("/api/v1/btc/health");
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 500, body: { message: "Internal server error" } });
    expect(log.lines.find((line) => line.message === "unhandled error" && line.path === "/api/v1/btc/health")).toBeDefined();
  });

  it("logs a node body that is cut: before the result as a node_error 500, mid-result by cutting the connection", async ({
    scriptedBtcStack: { node, request, log },
  }) => {
    node.behave((_method, response) => response.writeHead(200, { "content-type": "application/json" }).end('{"res'));
    const early = await request(`/api/v1/btc/transactions/${"cd".repeat(32)}`);
    expect({ status: early.status, body: await early.json() }).toEqual({
      status: 500,
      body: { error: "Could not connect to BTC node.", details: { reason: "node_error" } },
    });
    expect(log.lines.find((line) => line.message === "unusable answer from the Bitcoin node")).toBeDefined();

    node.behave((_method, response) =>
      response.writeHead(200, { "content-type": "application/json" }).end('{"result":{"hash":"00","tx":[{"txid":"1"},'),
    );
    // Whether the proxy had sent the headers yet or not (then the connection closes unanswered),
    // the client gets no block that looks whole.
    const received = await request(`/api/v1/btc/block/hash/${"ef".repeat(32)}`).then(
      (cut) =>
        cut.status === 200
          ? cut.text().then(
              (text) => (JSON.parse(text) as unknown, "a whole block"),
              () => "a cut body",
            )
          : `HTTP ${cut.status}`,
      () => "no answer",
    );
    expect(received).not.toBe("a whole block");
    await expect
      .poll(() =>
        log.lines.some((line) => line.message === "the node's streamed answer failed; connection cut" && line.method === "getblock"),
      )
      .toBe(true);
  });
});

describe("btc-proxy POST /jsonrpc: a fault of the proxy's own", () => {
  it("answers 500 -32603 saying so, and logs the error, instead of blaming the node's configuration", async ({
    brokenBtcProxy: { proxy, log },
  }) => {
    const response = await internalEdge(proxy).request(ACCOUNT_ID, "/api/v1/btc/jsonrpc", {
      method: "POST",
      body: JSON.stringify({ id: "q", method: "getblockcount", params: [] }),
    });
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 500,
      body: { error: { code: -32603, message: "Internal error in the proxy." }, id: "q" },
    });
    const line = log.lines.find((entry) => entry.message === "POST /jsonrpc failed unexpectedly");
    expect((line?.err as { message?: string } | undefined)?.message).toContain("reading 'status'");
  });
});
