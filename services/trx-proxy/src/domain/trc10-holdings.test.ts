import { describe, expect, it } from "vitest";
import { trc10Holdings } from "./trc10-holdings.ts";

const metadata = new Map([
  ["1000001", { name: "DevToken", symbol: "DTK" }],
  ["1002000", { name: "BitTorrent", symbol: "BTT" }],
  ["1005416", { name: "Copycat", symbol: "BTT" }],
  ["1000042", { name: "No symbol", symbol: "" }],
]);

describe("TRC-10 holdings keyed by symbol", () => {
  it("orders by numeric id and keys a repeated symbol as <symbol>#<id>, whatever order the node listed them in", () => {
    const holdings = trc10Holdings(
      [
        { id: "1005416", amount: 5n },
        { id: "1002000", amount: 7n },
        { id: "1000001", amount: 9_223_372_036_854_775_807n },
      ],
      metadata,
    );
    expect([...holdings.entries()]).toEqual([
      ["DTK", { name: "DevToken", id: "1000001", amount: 9_223_372_036_854_775_807n }],
      ["BTT", { name: "BitTorrent", id: "1002000", amount: 7n }],
      ["BTT#1005416", { name: "Copycat", id: "1005416", amount: 5n }],
    ]);
  });

  it("keys a token without a symbol, or unknown to the node, by its id, and leaves out zero balances", () => {
    const holdings = trc10Holdings(
      [
        { id: "1000042", amount: 1n },
        { id: "1999999", amount: 2n },
        { id: "1000001", amount: 0n },
      ],
      metadata,
    );
    expect([...holdings.keys()]).toEqual(["1000042", "1999999"]);
    expect(holdings.get("1999999")).toEqual({ name: "", id: "1999999", amount: 2n });
  });
});
