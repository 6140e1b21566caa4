/**
 * The Bitcoin client against a scripted HTTP server: a caller's cancellation never blames the node,
 * credentials and provider keys stay out of the URLs it shows, and numbers parse losslessly on request.
 */
import { describe, expect, it } from "vitest";
import { bitcoin } from "./chains/bitcoin.ts";
import { createNodeClient } from "./create-node-client.ts";
import type { NodeClient as BitcoinRpcClient } from "./node-client.ts";
import type { NodeClientOptions } from "./node-client-options.ts";
import { NodeCallAbortedError, NodeUnreachableError } from "./node-errors.ts";
import type { JsonNumber } from "./lossless-json.ts";
import { json, useScriptedNodes } from "./testing/scripted-node-server.ts";

/** The Bitcoin configuration of the shared client, as the btc-proxy uses it. */
const createBitcoinRpcClient = (options: Omit<NodeClientOptions, "chain">): BitcoinRpcClient =>
  createNodeClient({ chain: bitcoin, ...options });

describe("createBitcoinRpcClient response handling", () => {
  const { serve, make } = useScriptedNodes(createBitcoinRpcClient);
  const auth = { user: "u", password: "p" };
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
