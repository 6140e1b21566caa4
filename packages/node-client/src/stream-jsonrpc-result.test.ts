import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import fixture from "./fixtures/jsonrpc-answers.json" with { type: "json" };
import { streamJsonRpcResult, type StreamResultHandlers } from "./stream-jsonrpc-result.ts";

interface Case {
  name: string;
  body: string;
  result?: string;
  error?: { code: number; message: string };
  bad?: string;
}

class Refusal extends Error {
  readonly value: unknown;
  constructor(value: unknown) {
    super("refused");
    this.value = value;
  }
}
class BadAnswer extends Error {}

const handlers: StreamResultHandlers = {
  refusal: (error) => new Refusal(error),
  badAnswer: (what) => new BadAnswer(what),
};

/** The body in chunks of `size` bytes (multi-byte characters split across chunks too). */
function chunked(body: string, size: number): Readable {
  const bytes = Buffer.from(body);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

async function outcome(body: Readable): Promise<{ result: string } | { failure: unknown }> {
  try {
    const stream = await streamJsonRpcResult(body, handlers);
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return { result: Buffer.concat(parts).toString("utf8") };
  } catch (failure) {
    return { failure };
  }
}

describe("streamJsonRpcResult", () => {
  for (const testCase of fixture.cases as Case[]) {
    it(testCase.name, async () => {
      for (const size of [1, 2, 3, 7, 64, Buffer.byteLength(testCase.body)]) {
        const got = await outcome(chunked(testCase.body, size));
        if (testCase.result !== undefined) {
          expect(got, `chunks of ${size}`).toEqual({ result: testCase.result });
          continue;
        }
        expect(got, `chunks of ${size}`).toHaveProperty("failure");
        const { failure } = got as { failure: unknown };
        if (testCase.error) {
          expect(failure).toBeInstanceOf(Refusal);
          expect((failure as Refusal).value).toEqual(testCase.error);
        } else {
          expect(failure).toBeInstanceOf(BadAnswer);
          expect((failure as Error).message).toContain(testCase.bad);
        }
      }
    });
  }

  it("streams a large result before the node's body has ended, in views of its chunks", async () => {
    const body = new PassThrough();
    const transactions = Array.from({ length: 20_000 }, (_v, i) => ({ hash: `0x${i.toString(16).padStart(64, "0")}`, value: "0x1" }));
    const result = JSON.stringify({ number: "0x10", transactions });
    body.write(`{"jsonrpc":"2.0","id":42,"result":`);
    body.write(result.slice(0, 1_000));
    const stream = await streamJsonRpcResult(body, handlers);
    // Resolved with 1 KB of a 2 MB result written: nothing waited for the whole body.
    const first = (await new Promise((resolve) => stream.once("data", resolve))) as Buffer;
    expect(first.toString()).toBe(result.slice(0, first.length));
    stream.pause();
    const parts = [first];
    stream.on("data", (part: Buffer) => parts.push(part));
    const done = new Promise((resolve, reject) => stream.on("end", resolve).on("error", reject));
    stream.resume();
    for (let i = 1_000; i < result.length; i += 65_536) body.write(result.slice(i, i + 65_536));
    body.end("}");
    await done;
    expect(Buffer.concat(parts).toString()).toBe(result);
  });

  it("destroys the node's body when the consumer goes away", async () => {
    const body = new PassThrough();
    body.write('{"result":[1,');
    const stream = await streamJsonRpcResult(body, handlers);
    stream.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(body.destroyed).toBe(true);
  });
});
