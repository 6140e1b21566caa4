import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { unwrapRpcResult } from "./unwrap-rpc-result.ts";

async function unwrap(chunks: string[]): Promise<string> {
  return text(Readable.from(chunks.map((c) => Buffer.from(c))).pipe(unwrapRpcResult()));
}

describe("unwrapRpcResult", () => {
  const block = JSON.stringify({ hash: "00ab", tx: [{ txid: "1", vout: [{ value: 1e-8 }] }], note: ',"error":null,"id":1}' });
  const body = `{"result":${block},"error":null,"id":1}\n`;

  it("yields exactly the result's bytes, whatever the chunking", async () => {
    for (const size of [1, 3, 7, 64, 1_000]) {
      const chunks = body.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!;
      expect(await unwrap(chunks)).toBe(block);
    }
  });

  it("accepts string ids and no trailing newline", async () => {
    expect(await unwrap([`{"result":[1,2],"error":null,"id":"abc"}`])).toBe("[1,2]");
  });

  it("fails on a body that is not a success envelope", async () => {
    await expect(unwrap(['{"result":null,"error":{"code":-5,"message":"x"},"id":1}'])).rejects.toThrow(/successful envelope/);
    await expect(unwrap(['{"jsonrpc":"2.0","result":1,"id":1}'])).rejects.toThrow(/start with a result/);
    await expect(unwrap(['{"res'])).rejects.toThrow();
  });
});
