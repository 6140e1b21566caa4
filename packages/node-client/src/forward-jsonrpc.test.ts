import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { ethereum } from "./chains/ethereum.ts";
import { createNodeClient, type NodeClient, type RawNodeResponse } from "./create-node-client.ts";
import { forwardJsonRpc } from "./forward-jsonrpc.ts";
import { createJsonRpcProxyPolicy } from "./jsonrpc-proxy-policy.ts";
import { NodeCallAbortedError, NodeNotConfiguredError, NodeUnreachableError } from "./node-errors.ts";

const policy = createJsonRpcProxyPolicy({
  allowedMethods: ["eth_blockNumber"],
  forwardedVersion: "2.0",
  maxBatchCalls: 5,
  paramsRequired: false,
  allowedDescription: "the read methods",
});
const messages = { unreachableMessage: "Could not connect to ETH node.", notConfiguredMessage: "The ETH node is not configured." };

/** A node client whose callRaw is scripted, recording what it was sent. */
function scripted(callRaw: (body: string) => Promise<RawNodeResponse>) {
  const sent: string[] = [];
  const node: NodeClient = {
    ...createNodeClient({ chain: ethereum, urls: [] }),
    callRaw: (body) => {
      sent.push(body);
      return callRaw(body);
    },
  };
  return { node, sent };
}

const answer = (status: number, body: string): RawNodeResponse => ({ status, contentType: "application/json", body: Readable.from([Buffer.from(body)]), url: "http://node" });
const forward = (node: NodeClient, body: string) => forwardJsonRpc(node, policy, body, { signal: new AbortController().signal, ...messages });

describe("forwardJsonRpc", () => {
  it("refuses by policy without contacting the node", async () => {
    const { node, sent } = scripted(() => Promise.reject(new Error("must not be called")));
    expect(await forward(node, '{"id":1,"method":"eth_sendTransaction","params":[]}')).toMatchObject({ kind: "json", status: 403, body: { error: { code: -32601 }, id: 1 } });
    expect(sent).toEqual([]);
  });

  it("passes a 200 answer on unread, after sending the re-encoded call", async () => {
    const { node, sent } = scripted(async () => answer(200, '{"jsonrpc":"2.0","id":1,"result":"0x5"}'));
    const outcome = await forward(node, '{"id":1,"method":"eth_blockNumber","extra":true}');
    expect(sent).toEqual(['{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}']);
    expect(outcome.kind).toBe("stream");
    expect(await text((outcome as { body: Readable }).body)).toBe('{"jsonrpc":"2.0","id":1,"result":"0x5"}');
  });

  it("answers node failures in the JSON-RPC shape with the call's id", async () => {
    const failing = (error: Error) => scripted(() => Promise.reject(error)).node;
    const call = '{"id":"x","method":"eth_blockNumber"}';
    expect(await forward(failing(new NodeUnreachableError(ethereum, [])), call)).toEqual({
      kind: "json",
      status: 502,
      body: { error: { code: -32603, message: "Could not connect to ETH node." }, id: "x" },
    });
    expect(await forward(failing(new NodeNotConfiguredError(ethereum, "no node URL")), call)).toMatchObject({ status: 500, body: { error: { message: "The ETH node is not configured." } } });
    expect(await forward(failing(new NodeCallAbortedError(ethereum)), call)).toEqual({ kind: "client-gone" });
    const bug = await forward(failing(new TypeError("x is undefined")), call);
    expect(bug).toMatchObject({ status: 500, body: { error: { code: -32603, message: "Internal error in the proxy." }, id: "x" }, problem: { message: "POST /jsonrpc failed unexpectedly" } });
  });

  it("answers a JSON-RPC 1.0 refusal with 500 and the node's envelope, quoting one that is not JSON", async () => {
    const refusal = '{"result":null,"error":{"code":-8,"message":"Block height out of range"},"id":3}';
    expect(await forward(scripted(async () => answer(500, refusal)).node, '{"id":3,"method":"eth_blockNumber"}')).toEqual({ kind: "json", status: 500, body: JSON.parse(refusal) });
    const garbled = await forward(scripted(async () => answer(500, "<html>oops</html>")).node, '{"id":3,"method":"eth_blockNumber"}');
    expect(garbled).toMatchObject({ status: 500, body: { result: null, error: { code: -1, message: "<html>oops</html>" }, id: 3 }, problem: { message: expect.stringContaining("not JSON") } });
  });
});
