import { describe, expect, test } from "vitest";
import { parseBitcoinBlockJson, toBitcoinBlock } from "./bitcoin-block-source.ts";

describe("reading a getblock verbosity-2 result", () => {
  test("output values keep the node's decimal text (a double would print 5e-7 and lose digits)", () => {
    const body = `{"hash":"00ab","height":7,"time":1700000000,"previousblockhash":"00aa","tx":[{"txid":"t1","vout":[
      {"value":0.00000050,"n":0,"scriptPubKey":{"address":"bcrt1qa"}},
      {"value": 20999999.97690001,"n":1,"scriptPubKey":{"addresses":["1Old"]}}]}]}`;
    const block = toBitcoinBlock(parseBitcoinBlockJson(body) as Parameters<typeof toBitcoinBlock>[0]);
    expect(block).toEqual({
      hash: "00ab",
      height: 7,
      time: 1_700_000_000,
      previousblockhash: "00aa",
      tx: [
        {
          txid: "t1",
          vout: [
            { value: "0.00000050", n: 0, scriptPubKey: { address: "bcrt1qa" } },
            { value: "20999999.97690001", n: 1, scriptPubKey: { addresses: ["1Old"] } },
          ],
        },
      ],
    });
  });
});
