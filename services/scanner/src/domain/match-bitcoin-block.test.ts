import { describe, expect, test } from "vitest";
import { matchBitcoinBlock, type BitcoinBlock } from "./match-bitcoin-block.ts";
import { WatchIndex } from "./watch-index.ts";

const block: BitcoinBlock = {
  hash: "00aa",
  height: 101,
  previousblockhash: "0099",
  time: 1_700_000_000,
  tx: [
    { txid: "coinbase", vout: [{ value: "50.00000000", n: 0, scriptPubKey: { address: "bc1qminer" } }] },
    {
      txid: "pay",
      vout: [
        { value: "0.00000050", n: 0, scriptPubKey: { address: "bc1qalice" } },
        { value: "1.10000000", n: 1, scriptPubKey: { addresses: ["1OldStyle"] } },
        { value: "0.3", n: 2, scriptPubKey: {} },
        { value: "2.00000001", n: 3, scriptPubKey: { address: "bc1qalice" } },
      ],
    },
  ],
};

describe("Bitcoin matching", () => {
  test("one transfer per watched output, coinbase included, exact amounts", () => {
    const index = new WatchIndex();
    index.apply({
      webhookId: 5,
      coin: "BTC",
      addresses: ["bc1qalice", "bc1qminer", "1OldStyle"],
      isActive: true,
      deleted: false,
      version: 1,
    });
    const matches = matchBitcoinBlock(block, index);
    expect(matches.map((m) => [m.transfer.txid, m.transfer.position, m.transfer.amount, m.transfer.rawAmount, m.watchedAddress])).toEqual([
      ["coinbase", 0, "50", "5000000000", "bc1qminer"],
      ["pay", 0, "0.0000005", "50", "bc1qalice"],
      ["pay", 1, "1.1", "110000000", "1OldStyle"],
      ["pay", 3, "2.00000001", "200000001", "bc1qalice"],
    ]);
    expect(matches[1]!.transfer).toMatchObject({ currency: "BTC", decimals: 8, from: null, to: "bc1qalice", executionStatus: "SUCCESS" });
  });

  test("nothing matches an unwatched block", () => {
    const index = new WatchIndex();
    index.apply({ webhookId: 5, coin: "BTC", addresses: ["bc1qsomeoneelse"], isActive: true, deleted: false, version: 1 });
    expect(matchBitcoinBlock(block, index)).toEqual([]);
  });
});
