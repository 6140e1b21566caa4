import { describe, expect, it } from "vitest";
import { judge, lastWord, standingBlocks, type TransferNotification, type WatchedPayment } from "./last-word.ts";

const event = (
  type: TransferNotification["type"],
  block: string,
  generation: number,
  id = `${type}-${block}-${generation}`,
): TransferNotification => ({
  event_id: id,
  type,
  webhook_id: 1,
  txid: "t",
  position: null,
  currency: "ETH",
  block: { hash: block, height: 1 },
  generation,
});
const payment = (finalBlock: string | null, owed = true): WatchedPayment => ({
  webhookId: 1,
  txid: "t",
  position: null,
  currency: "ETH",
  finalBlock,
  owed,
  origin: "client",
});

const mempoolEvent = (type: TransferNotification["type"], generation = 0, txid = "t"): TransferNotification => ({
  event_id: `${type}-${txid}-${generation}`,
  type,
  webhook_id: 1,
  txid,
  position: null,
  currency: "ETH",
  generation,
});

describe("the subscriber's last word", () => {
  it("pending, then its transfer: the transfer; pending, mined, reorged out and back in the mempool: the next generation's pending, then its transfer", () => {
    expect(lastWord([mempoolEvent("pending"), event("transfer", "a", 0)])).toMatchObject({ type: "transfer" });
    const reorged = [mempoolEvent("pending"), event("transfer", "a", 0), event("reverted", "a", 0), mempoolEvent("pending", 1)];
    expect(lastWord(reorged)).toMatchObject({ type: "pending", generation: 1 });
    expect(lastWord([...reorged, event("transfer", "b", 1)])).toMatchObject({ type: "transfer", block: { hash: "b" } });
    expect(judge([payment("b")], [...reorged, event("transfer", "b", 1)], new Set(["a"]))).toMatchObject({
      falseFinalWords: [],
      falseFinalWordsPerBlock: [],
      pendingOutOfOrder: [],
      mempoolEvents: { pending: 2 },
    });
  });

  it("a payment never mined: its outcome is a true last word, a bare pending is not; a pending after its transfer is out of order", () => {
    expect(judge([payment(null)], [mempoolEvent("pending"), mempoolEvent("replaced")], new Set()).falseFinalWords).toEqual([]);
    expect(judge([payment(null)], [mempoolEvent("pending")], new Set()).falseFinalWords).toHaveLength(1);
    // A dropped transaction broadcast again and mined: the transfer outranks the dropped.
    expect(lastWord([mempoolEvent("pending"), mempoolEvent("dropped"), event("transfer", "a", 0)])).toMatchObject({ type: "transfer" });
    const late = judge([payment("a")], [event("transfer", "a", 0), mempoolEvent("pending")], new Set());
    expect(late.falseFinalWords).toEqual([]);
    expect(late.pendingOutOfOrder).toHaveLength(1);
  });

  it("A→B→A: the highest generation wins, reverted after transfer within one", () => {
    const events = [
      event("transfer", "a", 0),
      event("reverted", "a", 0),
      event("transfer", "b", 0),
      event("reverted", "b", 0),
      event("transfer", "a", 1),
    ];
    expect(lastWord(events)).toMatchObject({ type: "transfer", block: { hash: "a" }, generation: 1 });
    expect(standingBlocks(events)).toEqual(["a"]);
    expect(judge([payment("a")], events, new Set(["a", "b"]))).toMatchObject({
      falseFinalWords: [],
      falseFinalWordsPerBlock: [],
      falseReverts: [],
      reverts: 2,
    });
  });

  it("a transfer moved to another block at the same generation: the documented rule reads 'reverted', the per-block reading the new block", () => {
    const events = [event("transfer", "a", 0), event("reverted", "a", 0), event("transfer", "b", 0)];
    expect(lastWord(events)).toMatchObject({ type: "reverted", block: { hash: "a" } });
    expect(standingBlocks(events)).toEqual(["b"]);
    const verdict = judge([payment("b")], events, new Set(["a"]));
    expect(verdict.falseFinalWords).toHaveLength(1);
    expect(verdict.falseFinalWordsPerBlock).toEqual([]);
  });

  it("counts a missed owed payment, a revert of a block that stayed, copies of one id and one event under two ids", () => {
    const copies = [
      event("transfer", "a", 0, "x"),
      event("transfer", "a", 0, "x"),
      event("transfer", "a", 0, "y"),
      event("reverted", "a", 0),
    ];
    const verdict = judge([payment("a"), { ...payment("c"), txid: "u" }, { ...payment("d", false), txid: "v" }], copies, new Set());
    expect(verdict.missed.map((m) => m.key)).toEqual(["1:u:-:ETH"]);
    expect(verdict.falseReverts).toHaveLength(1);
    expect(verdict.duplicates).toBe(1);
    expect(verdict.duplicatesUnderNewIds.map((d) => d.eventIds)).toEqual([["x", "y"]]);
  });
});
