/**
 * `forwardJsonRpc` for single calls and for batches over the node's own limit, sent in chunks. How
 * it streams such a batch to a client that reads slowly or leaves: forward-jsonrpc-slow-client.test.ts.
 */
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import {
  ethereum,
  NodeCallAbortedError,
  NodeNotConfiguredError,
  NodeUnreachableError,
  type NodeClient,
  type RawNodeResponse,
} from "@chaingate/node-client";
import { forwardJsonRpc } from "./forward-jsonrpc.ts";
import { createJsonRpcProxyPolicy } from "./jsonrpc-proxy-policy.ts";
import { scriptedNodeClient } from "./scripted-node-client.ts";

const policy = createJsonRpcProxyPolicy({
  allowedMethods: ["eth_blockNumber"],
  forwardedVersion: "2.0",
  maxBatchCalls: 5,
  paramsRequired: false,
  allowedDescription: "the read methods",
});
const messages = { unreachableMessage: "Could not connect to ETH node.", notConfiguredMessage: "The ETH node is not configured." };

const answer = (status: number, body: string): RawNodeResponse => ({
  status,
  contentType: "application/json",
  body: Readable.from([Buffer.from(body)]),
  url: "http://node",
});
const forward = (node: NodeClient, body: string) =>
  forwardJsonRpc(node, policy, body, { signal: new AbortController().signal, ...messages });

/** The policy of a batch over the node's own limit: up to 20 calls, sent to the node three at a time. */
const chunkPolicy = createJsonRpcProxyPolicy({
  allowedMethods: ["eth_blockNumber"],
  forwardedVersion: "2.0",
  maxBatchCalls: 20,
  paramsRequired: false,
  allowedDescription: "the read methods",
});
const batchOf = (ids: Array<number | undefined>) =>
  JSON.stringify(ids.map((id) => ({ jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method: "eth_blockNumber" })));
const chunked = (node: NodeClient, body: string) =>
  forwardJsonRpc(node, chunkPolicy, body, { signal: new AbortController().signal, ...messages, nodeBatchCalls: 3 });
/** Answers each call with its id as the result, the node's way. */
const echo = async (body: string) =>
  answer(
    200,
    JSON.stringify(
      (JSON.parse(body) as { id?: number }[])
        .filter((c) => c.id !== undefined)
        .map((c) => ({ jsonrpc: "2.0", id: c.id, result: `0x${c.id}` })),
    ),
  );

describe("forwardJsonRpc", () => {
  it("refuses by policy without contacting the node", async () => {
    const { node, sent } = scriptedNodeClient(() => Promise.reject(new Error("must not be called")));
    expect(await forward(node, '{"id":1,"method":"eth_sendTransaction","params":[]}')).toMatchObject({
      kind: "json",
      status: 403,
      body: { error: { code: -32601 }, id: 1 },
    });
    expect(sent).toEqual([]);
  });

  it("passes a 200 answer on unread, after sending the re-encoded call", async () => {
    const { node, sent } = scriptedNodeClient(async () => answer(200, '{"jsonrpc":"2.0","id":1,"result":"0x5"}'));
    const outcome = await forward(node, '{"id":1,"method":"eth_blockNumber","extra":true}');
    expect(sent).toEqual(['{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}']);
    expect(outcome.kind).toBe("stream");
    expect(await text((outcome as { body: Readable }).body)).toBe('{"jsonrpc":"2.0","id":1,"result":"0x5"}');
  });

  it("answers node failures in the JSON-RPC shape with the call's id", async () => {
    const failing = (error: Error) => scriptedNodeClient(() => Promise.reject(error)).node;
    const call = '{"id":"x","method":"eth_blockNumber"}';
    expect(await forward(failing(new NodeUnreachableError(ethereum, [])), call)).toEqual({
      kind: "json",
      contentType: "application/json",
      status: 502,
      body: { error: { code: -32603, message: "Could not connect to ETH node." }, id: "x" },
    });
    expect(await forward(failing(new NodeNotConfiguredError(ethereum, "no node URL")), call)).toMatchObject({
      status: 500,
      body: { error: { message: "The ETH node is not configured." } },
    });
    expect(await forward(failing(new NodeCallAbortedError(ethereum)), call)).toEqual({ kind: "client-gone" });
    const bug = await forward(failing(new TypeError("x is undefined")), call);
    expect(bug).toMatchObject({
      status: 500,
      body: { error: { code: -32603, message: "Internal error in the proxy." }, id: "x" },
      problem: { message: "POST /jsonrpc failed unexpectedly" },
    });
  });

  it("answers a JSON-RPC 1.0 refusal with 500 and the node's envelope, quoting one that is not JSON", async () => {
    const refusal = '{"result":null,"error":{"code":-8,"message":"Block height out of range"},"id":3}';
    expect(await forward(scriptedNodeClient(async () => answer(500, refusal)).node, '{"id":3,"method":"eth_blockNumber"}')).toEqual({
      kind: "json",
      contentType: "application/json",
      status: 500,
      body: JSON.parse(refusal),
    });
    const garbled = await forward(
      scriptedNodeClient(async () => answer(500, "<html>oops</html>")).node,
      '{"id":3,"method":"eth_blockNumber"}',
    );
    expect(garbled).toMatchObject({
      status: 500,
      body: { result: null, error: { code: -1, message: "<html>oops</html>" }, id: 3 },
      problem: { message: expect.stringContaining("not JSON") },
    });
  });

  describe("a batch over the node's own limit", () => {
    it("sends it in chunks of that size and answers one array in request order", async () => {
      const { node, sent } = scriptedNodeClient(echo);
      const outcome = await chunked(node, batchOf([1, 2, 3, 4, 5, 6, 7]));
      expect(sent.map((body) => (JSON.parse(body) as { id: number }[]).map((c) => c.id))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
      expect(outcome).toMatchObject({ kind: "stream", contentType: "application/json" });
      expect(JSON.parse(await text((outcome as { body: Readable }).body))).toEqual(
        [1, 2, 3, 4, 5, 6, 7].map((id) => ({ jsonrpc: "2.0", id, result: `0x${id}` })),
      );
    });

    it("answers a later chunk's failure inside the array, one error per call; the first chunk's as a single exchange would", async () => {
      let calls = 0;
      const laterFails = scriptedNodeClient((body) =>
        ++calls === 2 ? Promise.reject(new NodeUnreachableError(ethereum, [])) : echo(body),
      );
      const outcome = await chunked(laterFails.node, batchOf([1, 2, 3, 4, 5, 6, 7]));
      const answers = JSON.parse(await text((outcome as { body: Readable }).body)) as {
        id: number;
        result?: string;
        error?: { code: number };
      }[];
      expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(answers.slice(3, 6).map((a) => a.error?.code)).toEqual([-32603, -32603, -32603]);
      expect(answers[6]).toEqual({ jsonrpc: "2.0", id: 7, result: "0x7" });
      const firstFails = scriptedNodeClient(() => Promise.reject(new NodeUnreachableError(ethereum, [])));
      expect(await chunked(firstFails.node, batchOf([1, 2, 3, 4]))).toMatchObject({
        kind: "json",
        status: 502,
        body: { error: { code: -32603 }, id: null },
      });
    });

    it("turns a chunk the node refused whole (one error object) into that error per call", async () => {
      let calls = 0;
      const refusal = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}';
      const { node } = scriptedNodeClient((body) => (++calls === 1 ? echo(body) : Promise.resolve(answer(200, refusal))));
      const answers = JSON.parse(await text(((await chunked(node, batchOf([1, 2, 3, 4]))) as { body: Readable }).body)) as unknown[];
      expect(answers).toEqual([
        ...[1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, result: `0x${id}` })),
        { jsonrpc: "2.0", id: 4, error: { code: -32600, message: "batch too large" } },
      ]);
    });

    it("answers nothing for a batch of notifications only, as JSON-RPC 2.0 says", async () => {
      const { node, sent } = scriptedNodeClient(echo);
      const outcome = await chunked(node, batchOf([undefined, undefined, undefined, undefined]));
      expect(sent).toHaveLength(2);
      expect(await text((outcome as { body: Readable }).body)).toBe("");
    });
  });
});
