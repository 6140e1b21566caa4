import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { peekFirstByte } from "./peek-first-byte.ts";

const chunked = (...chunks: string[]) =>
  Readable.from(
    chunks.map((chunk) => Buffer.from(chunk)),
    { objectMode: false },
  );

describe("peekFirstByte", () => {
  it.each([
    [["null"], "n"],
    [['{"hash":"0x1"}'], "{"],
    [[" ", "\n\t", "  null"], "n"],
    [["\r\n", "{", '"a":1}'], "{"],
  ])("finds the first non-blank byte of %j and leaves the whole body readable", async (chunks, expected) => {
    const body = chunked(...chunks);
    expect(String.fromCharCode((await peekFirstByte(body))!)).toBe(expected);
    expect(await text(body)).toBe(chunks.join(""));
  });

  it("answers undefined for a body that ends blank", async () => {
    expect(await peekFirstByte(chunked(" ", "\n"))).toBeUndefined();
    expect(await peekFirstByte(chunked())).toBeUndefined();
  });

  it("rejects with the stream's error", async () => {
    const body = new Readable({ read() {} });
    const peeked = peekFirstByte(body);
    body.destroy(new Error("cut"));
    await expect(peeked).rejects.toThrow("cut");
  });
});
