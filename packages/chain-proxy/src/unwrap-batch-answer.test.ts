import { describe, expect, it } from "vitest";
import { MAX_NOT_AN_ARRAY_BYTES, unwrapBatchAnswer, type BatchAnswerPiece } from "./unwrap-batch-answer.ts";

/** Node answers to a batch, and what a client must read of them once joined with others. */
const ARRAYS: Array<{ name: string; answer: string }> = [
  { name: "geth's compact array", answer: '[{"jsonrpc":"2.0","id":1,"result":"0x1"},{"jsonrpc":"2.0","id":2,"result":"0x2"}]\n' },
  { name: "blanks around everything", answer: ' \n[ \r\n {"jsonrpc":"2.0","id":1,"result":"0x1"} ,\t{"id":2,"result":[1,[2]]} \n ]  \n' },
  { name: "an element ending in brackets", answer: '[{"id":1,"result":[[1],[2,[3]]]},[4,[5]]]' },
  { name: "brackets and blanks inside strings", answer: '[{"id":"] ,[","result":" ] "}]' },
  { name: "a bracket and spaces inside a string, at its end", answer: '[{"id":1,"result":"a]   "}, {"id":2,"result":"]  ]"}]' },
  { name: "line breaks between closing brackets", answer: '[[1,[2]\n\t]\r\n , {"id":2}\n]' },
  { name: "one element", answer: '[{"jsonrpc":"2.0","id":"a","error":{"code":-32000,"message":"execution reverted"}}]' },
];
const EMPTY = ["[]", " [ \n ] \n", "", "  \n"];

async function piecesOf(answer: string, cuts: number[]): Promise<BatchAnswerPiece[]> {
  const bytes = Buffer.from(answer);
  const bounds = [0, ...cuts, bytes.length];
  async function* body() {
    for (let i = 0; i + 1 < bounds.length; i++) yield bytes.subarray(bounds[i], bounds[i + 1]);
  }
  const pieces: BatchAnswerPiece[] = [];
  for await (const piece of unwrapBatchAnswer(body(), { badAnswer: (what) => new Error(what) })) pieces.push(piece);
  return pieces;
}

/** The answer cut in two at every byte, and cut into single bytes. */
const cutsOf = (answer: string): number[][] => [
  [],
  ...Array.from({ length: Buffer.byteLength(answer) - 1 }, (_, at) => [at + 1]),
  Array.from({ length: Buffer.byteLength(answer) - 1 }, (_, at) => at + 1),
];

const elementsText = (pieces: BatchAnswerPiece[]) =>
  pieces.map((piece) => (piece.kind === "elements" ? piece.bytes.toString("utf8") : `<${piece.kind}>`)).join("");

describe("unwrapBatchAnswer", () => {
  it.each(ARRAYS)("yields the elements of $name, however the body is cut", async ({ answer }) => {
    for (const cuts of cutsOf(answer)) {
      const pieces = await piecesOf(answer, cuts);
      expect(pieces.every((piece) => piece.kind === "elements" && piece.bytes.length > 0)).toBe(true);
      // Joined with another chunk's elements, still the same values.
      const joined = `[${elementsText(pieces)},{"id":"next"}]`;
      expect(JSON.parse(joined)).toEqual([...(JSON.parse(answer) as unknown[]), { id: "next" }]);
      expect(elementsText(pieces)).toMatch(/^\S/);
    }
  });

  it("gives back every space after a held bracket, however many (a string's)", async () => {
    const answer = `[{"id":1,"result":"]${" ".repeat(40_000)}"}]`;
    for (const cuts of [[], [20, 21], [21, 30_000], [21, 10_000, 20_000, 40_000, 40_021]]) {
      const pieces = await piecesOf(answer, cuts);
      expect(JSON.parse(`[${elementsText(pieces)}]`)).toEqual(JSON.parse(answer));
    }
  });

  it.each(EMPTY)("yields nothing for an empty array or a blank answer (%j)", async (answer) => {
    for (const cuts of answer.length > 1 ? cutsOf(answer) : [[]]) expect(await piecesOf(answer, cuts)).toEqual([]);
  });

  it("yields an answer that is not an array whole, as its only piece", async () => {
    const refusal = ' {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}';
    for (const cuts of cutsOf(refusal)) expect(await piecesOf(refusal, cuts)).toEqual([{ kind: "not-an-array", text: refusal.trim() }]);
    const huge = `{"error":"${"x".repeat(2 * MAX_NOT_AN_ARRAY_BYTES)}"}`;
    const [piece] = await piecesOf(huge, [1000, 70_000]);
    expect(piece).toMatchObject({ kind: "not-an-array" });
    expect((piece as { text: string }).text).toHaveLength(MAX_NOT_AN_ARRAY_BYTES);
  });

  it("throws when the array is not closed at the end, after yielding what came", async () => {
    for (const answer of ['[{"id":1,"result":"0x1"}', '[{"id":1,"result":"0x1"}] x', "[", '[{"id":1}]]x']) {
      const pieces: string[] = [];
      const reading = (async () => {
        const body = (async function* () {
          yield Buffer.from(answer);
        })();
        for await (const piece of unwrapBatchAnswer(body, { badAnswer: (what) => new Error(what) }))
          if (piece.kind === "elements") pieces.push(piece.bytes.toString());
      })();
      await expect(reading).rejects.toThrow("the batch answer ended before its closing bracket");
    }
  });

  it("passes the body's own error on", async () => {
    const body = (async function* () {
      yield Buffer.from('[{"id":1},');
      throw new Error("socket hang up");
    })();
    const pieces: string[] = [];
    await expect(
      (async () => {
        for await (const piece of unwrapBatchAnswer(body, { badAnswer: (what) => new Error(what) }))
          if (piece.kind === "elements") pieces.push(piece.bytes.toString());
      })(),
    ).rejects.toThrow("socket hang up");
    expect(pieces).toEqual(['{"id":1},']);
  });
});
