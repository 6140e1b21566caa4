/**
 * `forwardJsonRpc` streaming a batch it sends in chunks: it reads from the node only as far ahead of
 * the client as a few chunks, stops the node calls when the client leaves or the first chunk decides
 * the status, and keeps the answer's array whole, or cuts it, when a chunk's answer breaks.
 */
import { Readable, Writable } from "node:stream";
import { text } from "node:stream/consumers";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ethereum, NodeUnreachableError, type NodeClient, type RawNodeResponse } from "@chaingate/node-client";
import { NODE_CHUNKS_IN_FLIGHT } from "./forward-batch-in-chunks.ts";
import { forwardJsonRpc } from "./forward-jsonrpc.ts";
import { createJsonRpcProxyPolicy } from "./jsonrpc-proxy-policy.ts";
import { scriptedNodeClient } from "./scripted-node-client.ts";

const messages = { unreachableMessage: "Could not connect to ETH node.", notConfiguredMessage: "The ETH node is not configured." };

const answer = (status: number, body: string): RawNodeResponse => ({
  status,
  contentType: "application/json",
  body: Readable.from([Buffer.from(body)]),
  url: "http://node",
});

const CALLS = 60;
const CALLS_PER_CHUNK = 3;
const CHUNKS = CALLS / CALLS_PER_CHUNK;
/** What a node answers each call with: 64 KiB. */
const RESULT = `0x${"ab".repeat(32 * 1024)}`;
/** The node's body is read in pieces of this size, as a socket is. */
const PIECE_BYTES = 16 * 1024;
/** Bytes read from the node and not yet taken by the client, at most: a few stream buffers, not the answer. */
const HELD_BYTES_BOUND = 256 * 1024;
const widePolicy = createJsonRpcProxyPolicy({
  allowedMethods: ["eth_call"],
  forwardedVersion: "2.0",
  maxBatchCalls: CALLS,
  paramsRequired: false,
  allowedDescription: "the read methods",
});
/** A batch of CALLS calls, sent to the node in chunks of CALLS_PER_CHUNK. */
const batch = JSON.stringify(Array.from({ length: CALLS }, (_, id) => ({ jsonrpc: "2.0", id, method: "eth_call", params: [] })));
const forwardBatch = (node: NodeClient) =>
  forwardJsonRpc(node, widePolicy, batch, {
    signal: new AbortController().signal,
    ...messages,
    nodeBatchCalls: CALLS_PER_CHUNK,
  }) as Promise<{ kind: "stream"; body: Readable }>;
/** Long enough for a proxy that reads ahead of its client to read it all (in memory, a few ms). */
const settle = () => sleep(100);

/** A node answering every call with RESULT, its body read piece by piece; counts the bytes read from it. */
function heavyNode() {
  const read = { bytes: 0, bodies: [] as Readable[], signals: [] as AbortSignal[] };
  const { node, sent } = scriptedNodeClient(async (body, { signal }) => {
    if (signal) read.signals.push(signal);
    const ids = (JSON.parse(body) as { id: number }[]).map((call) => call.id);
    const whole = Buffer.from(JSON.stringify(ids.map((id) => ({ jsonrpc: "2.0", id, result: RESULT }))));
    function* pieces() {
      for (let at = 0; at < whole.length; at += PIECE_BYTES) {
        const piece = whole.subarray(at, at + PIECE_BYTES);
        read.bytes += piece.length;
        yield piece;
      }
    }
    const stream = Readable.from(pieces(), { objectMode: false, highWaterMark: PIECE_BYTES });
    read.bodies.push(stream);
    return { status: 200, contentType: "application/json", body: stream, url: "http://node" };
  });
  return { node, sent, read };
}

/** A client whose socket takes one write and then nothing, until resume(). */
function stalledClient() {
  const received: Buffer[] = [];
  let receivedBytes = 0;
  let paused = true;
  let release: (() => void) | undefined;
  const socket = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      received.push(chunk);
      receivedBytes += chunk.length;
      if (paused) release = done;
      else done();
    },
  });
  const finished = new Promise<string>((resolve, reject) => {
    socket.on("finish", () => resolve(Buffer.concat(received).toString("utf8")));
    socket.on("error", reject);
  });
  return {
    socket,
    receivedBytes: () => receivedBytes,
    received: () => Buffer.concat(received).toString("utf8"),
    resume() {
      paused = false;
      release?.();
    },
    finished,
  };
}

/** A node answering 200 to every chunk: with `bodies[n]()` for the n-th chunk it is sent, else each call's id as its result. */
const node200 = (bodies: Record<number, () => Readable>) => {
  let calls = 0;
  return scriptedNodeClient(async (body) => {
    const script = bodies[++calls];
    if (script) return { status: 200, contentType: "application/json", body: script(), url: "http://node" };
    const ids = (JSON.parse(body) as { id: number }[]).map((call) => call.id);
    return answer(200, JSON.stringify(ids.map((id) => ({ jsonrpc: "2.0", id, result: `0x${id}` }))));
  }).node;
};
/** A node's answer that breaks off (socket hang up) after `written`. */
const brokenAfter = (written: string) =>
  new Readable({
    read() {
      if (written !== "") this.push(Buffer.from(written));
      written = "";
      setImmediate(() => this.destroy(new Error("socket hang up")));
    },
  });
/** A batch of the given ids, sent in chunks of three. */
const smallBatch = (ids: number[]) => JSON.stringify(ids.map((id) => ({ jsonrpc: "2.0", id, method: "eth_call", params: [] })));
const forwardSmall = (node: NodeClient, ids: number[]) =>
  forwardJsonRpc(node, widePolicy, smallBatch(ids), {
    signal: new AbortController().signal,
    ...messages,
    nodeBatchCalls: 3,
  }) as Promise<{ kind: "stream"; body: Readable }>;

describe("forwardJsonRpc", () => {
  describe("a batch in chunks, with a client that reads slowly or leaves", () => {
    it(`reads no more than ${NODE_CHUNKS_IN_FLIGHT} chunks ahead of a client that stops reading, and answers it whole once it reads`, async () => {
      const { node, sent, read } = heavyNode();
      const { body } = await forwardBatch(node);
      const client = stalledClient();
      body.pipe(client.socket);
      await settle();
      expect(sent).toHaveLength(NODE_CHUNKS_IN_FLIGHT);
      expect(read.bytes - client.receivedBytes()).toBeLessThan(HELD_BYTES_BOUND);

      client.resume();
      const answers = JSON.parse(await client.finished) as { id: number; result: string }[];
      expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: CALLS }, (_, id) => id));
      expect(answers.every((answer) => answer.result === RESULT)).toBe(true);
      expect(sent).toHaveLength(CHUNKS);
    });

    it("cancels the node calls under way and requests no more when the client leaves mid-batch", async () => {
      const { node, sent, read } = heavyNode();
      const { body } = await forwardBatch(node);
      const client = stalledClient();
      body.pipe(client.socket);
      await settle();
      // Mid-batch: the answer has started, the first chunk is not through.
      expect(client.received()).toMatch(/^\[/);
      expect(sent).toHaveLength(NODE_CHUNKS_IN_FLIGHT);

      body.destroy();
      await settle();
      expect(sent).toHaveLength(NODE_CHUNKS_IN_FLIGHT);
      expect(read.signals.every((signal) => signal.aborted)).toBe(true);
      expect(read.bodies.every((nodeBody) => nodeBody.destroyed)).toBe(true);
    });

    it("cancels the other chunks' calls when the first chunk decides the status", async () => {
      const signals: AbortSignal[] = [];
      let calls = 0;
      const { node } = scriptedNodeClient((_body, { signal }) => {
        if (signal) signals.push(signal);
        // The first chunk fails after the others were sent; they would answer, slowly.
        return ++calls === 1 ? sleep(10).then(() => Promise.reject(new NodeUnreachableError(ethereum, []))) : new Promise(() => undefined);
      });
      expect(await forwardBatch(node)).toMatchObject({ kind: "json", status: 502 });
      expect(signals).toHaveLength(NODE_CHUNKS_IN_FLIGHT);
      expect(signals.every((signal) => signal.aborted)).toBe(true);
    });

    it("answers in place a middle chunk whose answer broke before its first byte: the array stays whole", async () => {
      const { body } = await forwardSmall(node200({ 2: () => brokenAfter("") }), [1, 2, 3, 4, 5, 6, 7]);
      const answers = JSON.parse(await text(body)) as { id: number; result?: string; error?: { code: number } }[];
      expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(answers.slice(3, 6).map((a) => a.error?.code)).toEqual([-32603, -32603, -32603]);
      expect(answers[6]).toEqual({ jsonrpc: "2.0", id: 7, result: "0x7" });
    });

    it("cuts the answer when a chunk's answer breaks off after part of it was passed on (the array cannot be mended)", async () => {
      const partial = '[{"jsonrpc":"2.0","id":4,"result":"0x4"},{"jsonrpc":"2.0","id":5,"res';
      const { body } = await forwardSmall(node200({ 2: () => brokenAfter(partial) }), [1, 2, 3, 4, 5, 6, 7]);
      const received: string[] = [];
      body.on("data", (piece: Buffer) => received.push(piece.toString("utf8")));
      await expect(new Promise((resolve, reject) => body.on("end", resolve).on("error", reject))).rejects.toThrow("socket hang up");
      expect(received.join("")).toBe(
        `[${[1, 2, 3].map((id) => JSON.stringify({ jsonrpc: "2.0", id, result: `0x${id}` })).join(",")},${partial.slice(1)}`,
      );
    });

    it("cuts the answer when a chunk's array is never closed", async () => {
      const unclosed = () => Readable.from([Buffer.from('[{"jsonrpc":"2.0","id":4,"result":"0x4"}')]);
      const { body } = await forwardSmall(node200({ 2: unclosed }), [1, 2, 3, 4]);
      await expect(text(body)).rejects.toMatchObject({ name: "NodeAnswerError", message: expect.stringContaining("closing bracket") });
    });
  });
});
