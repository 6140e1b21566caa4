/**
 * Node behaviours litecoind 0.21 cannot show (JSON-RPC 2.0 replies of Bitcoin Core 28+, an
 * overloaded node's 503, cookie rotation, a hung node), against a scripted HTTP server.
 */
import http from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bitcoin } from "./chains/bitcoin.ts";
import { createNodeClient, type NodeClient, type NodeClient as BitcoinRpcClient, type NodeClientOptions } from "./create-node-client.ts";
import { NodeCallAbortedError, nodeFailureDetails, NodeRpcError, NodeUnreachableError } from "./node-errors.ts";
import { ethereum } from "./chains/ethereum.ts";
import { tron } from "./chains/tron.ts";
import type { JsonNumber } from "./lossless-json.ts";

/** The Bitcoin configuration of the shared client, as the btc-proxy uses it. */
const createBitcoinRpcClient = (options: Omit<NodeClientOptions, "chain">): BitcoinRpcClient =>
  createNodeClient({ chain: bitcoin, ...options });

type Handler = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => void;

async function startServer(handler: Handler): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => handler(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

function json(response: http.ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

describe("createBitcoinRpcClient response handling", () => {
  const servers: http.Server[] = [];
  const clients: BitcoinRpcClient[] = [];
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "chaingate-rpc-client-"));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const serve = async (handler: Handler) => {
    const started = await startServer(handler);
    servers.push(started.server);
    return started.url;
  };
  const make = (options: Parameters<typeof createBitcoinRpcClient>[0]) => {
    const client = createBitcoinRpcClient(options);
    clients.push(client);
    return client;
  };
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

  it("does not blame the node when the caller aborts a raw call", async () => {
    const hung = await serve(() => {});
    const client = make({ urls: [hung], auth });
    const controller = new AbortController();
    const pending = client.callRaw("{}", { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow();
    expect(client.upstreams()[0]).toMatchObject({ healthy: true });
  });

  it("never marks a node down for a cancelled call, buffered or streamed, and tries no other URL", async () => {
    let seenBySecond = 0;
    const hung = await serve(() => {});
    const second = await serve((_request, _body, response) => {
      seenBySecond++;
      json(response, 200, { result: 1, error: null, id: 1 });
    });
    const client = make({ urls: [hung, second], auth });
    for (const start of [
      (signal: AbortSignal) => client.call("getblockcount", [], { signal }),
      (signal: AbortSignal) => client.callStreamed("getblock", [], { signal }),
    ]) {
      const controller = new AbortController();
      const pending = start(controller.signal);
      setTimeout(() => controller.abort(), 50);
      await expect(pending).rejects.toBeInstanceOf(NodeCallAbortedError);
    }
    expect(client.upstreams().map((upstream) => upstream.healthy)).toEqual([true, true]);
    expect(seenBySecond).toBe(0);
  });

  it("cancels a streamed answer mid-body without blaming the node, and frees the node's connection", async () => {
    let nodeSawClose = false;
    const slow = await serve((request, _body, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"result":[');
      const timer = setInterval(() => response.write('"0000000000000000",'), 10);
      response.on("close", () => {
        clearInterval(timer);
        nodeSawClose = true;
      });
      request.on("error", () => {});
    });
    const client = make({ urls: [slow], auth });
    const controller = new AbortController();
    const body = await client.callStreamed("getblock", [], { signal: controller.signal });
    body.on("error", () => {});
    controller.abort();
    await expect.poll(() => nodeSawClose, { timeout: 2_000 }).toBe(true);
    expect(client.upstreams()[0]).toMatchObject({ healthy: true });
  });

  it("keeps credentials out of every URL it shows: upstreams, errors", async () => {
    const dead = new URL(await serve((_request, _body, response) => response.writeHead(503).end("busy")));
    dead.username = "rpcuser";
    dead.password = "s3cret-password";
    const client = make({ urls: [dead.toString()] });
    const error = (await client.call("getblockcount").catch((caught: unknown) => caught)) as NodeUnreachableError;
    expect(error).toBeInstanceOf(NodeUnreachableError);
    const shown = JSON.stringify([client.upstreams(), error.message, error.details, error.attempts]);
    expect(shown).not.toContain("s3cret-password");
    expect(shown).not.toContain("rpcuser");
    expect(client.upstreams()[0]!.url).toBe(`http://127.0.0.1:${dead.port}`);
  });

  it("masks provider keys in the path or query of the URLs it shows, and still sends them", async () => {
    let seenPath = "";
    const base = await serve((request, _body, response) => {
      seenPath = request.url ?? "";
      response.writeHead(503).end();
    });
    const client = make({ urls: [`${base}/v3/9aa3d95b3bc440fa88ea12eaa4456161?apikey=abc123`], auth });
    const error = (await client.call("getblockcount").catch((caught: unknown) => caught)) as NodeUnreachableError;
    expect(seenPath).toBe("/v3/9aa3d95b3bc440fa88ea12eaa4456161?apikey=abc123");
    await client.request("/wallet/getnowblock").catch(() => undefined);
    expect(seenPath).toBe("/v3/9aa3d95b3bc440fa88ea12eaa4456161/wallet/getnowblock?apikey=abc123");
    expect(client.upstreams()[0]!.url).toBe(`${base}/v3/[redacted]?apikey=[redacted]`);
    expect(JSON.stringify([error.message, error.attempts])).not.toMatch(/9aa3d95b|abc123/);
  });

  it("parses numbers losslessly on request: amounts as the node wrote them", async () => {
    const url = await serve((_request, _body, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end('{"result":[{"amount":0.00000050}],"error":null,"id":1}');
    });
    const [row] = await make({ urls: [url], auth }).call<[{ amount: JsonNumber }]>("listreceivedbyaddress", [], { lossless: true });
    expect(row.amount.text).toBe("0.00000050");
  });
});

describe("createNodeClient for JSON-RPC 2.0 and plain HTTP JSON nodes", () => {
  const servers: http.Server[] = [];
  const clients: NodeClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });
  const serve = async (handler: Handler) => {
    const started = await startServer(handler);
    servers.push(started.server);
    return started.url;
  };
  const make = (options: NodeClientOptions) => {
    const client = createNodeClient(options);
    clients.push(client);
    return client;
  };

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

  describe("endpoint checks and demotion", () => {
    /** An Ethereum node of chain `chainId` whose tip is `height`; `calls` counts what it was asked. */
    const ethNode = async (chainId: string, height: number) => {
      const calls: string[] = [];
      let up = true;
      const url = await serve((_request, body, response) => {
        const { id, method } = JSON.parse(body) as { id: number; method: string };
        calls.push(method);
        if (!up) return response.writeHead(503, { "content-type": "text/plain" }).end("down");
        json(response, 200, { jsonrpc: "2.0", id, result: method === "eth_chainId" ? chainId : `0x${height.toString(16)}` });
      });
      return { url, calls, setUp: (value: boolean) => (up = value) };
    };
    /** Refuses a node whose eth_chainId is not 0x1, read through the endpoint itself. */
    const mainnetOnly = async (endpoint: { call<T>(method: string): Promise<T> }) => {
      const chainId = await endpoint.call<string>("eth_chainId");
      return chainId === "0x1" ? undefined : `chain id ${chainId}, expected 0x1`;
    };

    it("checks a URL before it first answers, skips a refused one like an unhealthy one and says why in upstreams()", async () => {
      const wrong = await ethNode("0x7a69", 5);
      const right = await ethNode("0x1", 9);
      const client = make({ chain: ethereum, urls: [wrong.url, right.url], verifyEndpoint: mainnetOnly });
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      // The wrong node was asked for its identity only; the right one once for its identity, then served.
      expect(wrong.calls).toEqual(["eth_chainId"]);
      expect(right.calls).toEqual(["eth_chainId", "eth_blockNumber", "eth_blockNumber"]);
      expect(client.upstreams()[0]).toMatchObject({
        healthy: false,
        refused: "chain id 0x7a69, expected 0x1",
        lastError: "refused: chain id 0x7a69, expected 0x1",
      });
      expect(client.upstreams()[1]).toMatchObject({ healthy: true });
      expect(client.upstreams()[1]!.refused).toBeUndefined();
    });

    it("fails with the refusal when every URL is refused", async () => {
      const wrong = await ethNode("0x7a69", 5);
      const error = await make({ chain: ethereum, urls: [wrong.url], verifyEndpoint: mainnetOnly })
        .call("eth_blockNumber")
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NodeUnreachableError);
      expect(String((error as Error).message)).toContain("refused: chain id 0x7a69");
    });

    it("checks a URL again when it comes back from a cool-down", async () => {
      let clock = 1_000;
      const first = await ethNode("0x1", 9);
      const second = await ethNode("0x1", 8);
      const client = make({
        chain: ethereum,
        urls: [first.url, second.url],
        verifyEndpoint: mainnetOnly,
        coolDownMs: 100,
        now: () => clock,
      });
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      first.setUp(false);
      expect(await client.call("eth_blockNumber")).toBe("0x8");
      first.setUp(true);
      clock += 200;
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      expect(first.calls.filter((method) => method === "eth_chainId")).toHaveLength(2);
      expect(second.calls.filter((method) => method === "eth_chainId")).toHaveLength(1);
    });

    it("treats a failing check as the URL being down", async () => {
      const node = await ethNode("0x1", 9);
      const client = make({ chain: ethereum, urls: [node.url], verifyEndpoint: () => Promise.reject(new Error("genesis unreadable")) });
      await expect(client.call("eth_blockNumber")).rejects.toBeInstanceOf(NodeUnreachableError);
      expect(client.upstreams()[0]).toMatchObject({ healthy: false, lastError: "endpoint check failed: genesis unreadable" });
    });

    it("demotes the URL that answered the most recent call for the cool-down, and checks it again after", async () => {
      let clock = 1_000;
      const ahead = await ethNode("0x1", 9);
      const behind = await ethNode("0x1", 3);
      const client = make({
        chain: ethereum,
        urls: [behind.url, ahead.url],
        verifyEndpoint: mainnetOnly,
        coolDownMs: 100,
        now: () => clock,
      });
      expect(client.demoteCurrent("nothing answered yet")).toBeUndefined();
      expect(await client.call("eth_blockNumber")).toBe("0x3");
      expect(client.demoteCurrent("3 blocks behind for 60 s")).toBe(behind.url);
      expect(client.upstreams()[0]).toMatchObject({ healthy: false, lastError: "3 blocks behind for 60 s" });
      expect(await client.call("eth_blockNumber")).toBe("0x9");
      clock += 200;
      expect(await client.call("eth_blockNumber")).toBe("0x3");
      expect(behind.calls.filter((method) => method === "eth_chainId")).toHaveLength(2);
    });
  });
});

async function collectAndDiscard(body: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of body);
}
