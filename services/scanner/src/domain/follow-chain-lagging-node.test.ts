import { describe, expect, test, vi } from "vitest";
import { transferEventId } from "./transfer-event.ts";
import { WatchIndex } from "./watch-index.ts";
import { createMemoryFollowerStore } from "../testing/memory-follower-store.ts";
import { fakeChain, fixedWatchFeed, recordingSink } from "../testing/fake-chain.ts";
import { aliceWatched, follow, publishThenDie, runUntil } from "../testing/follow-chain-runners.ts";

describe("following a chain through a lagging node (issue 16)", () => {
  const noFeed = fixedWatchFeed();

  test("a node whose tip falls below the cursor is waited for: nothing is reverted, and the blocks are processed once it is back", async () => {
    const { mine, spec, view } = fakeChain();
    const { index, sink, published, blocks } = aliceWatched(mine);
    const onNodeBehind = vi.fn();
    const following = follow({ chain: spec, index, watchFeed: noFeed, store: createMemoryFollowerStore(), sink, onNodeBehind });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(3));
    // Failover to a URL two blocks behind: its tip is 0, it has no block 1 or 2.
    view.lag = 2;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(published.map((e) => e.type)).toEqual(["transfer", "transfer"]);
    expect(onNodeBehind).toHaveBeenCalledWith(2);
    view.lag = 0;
    mine([["alice", "3"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(4));
    await following.stop();
    expect(published.map((e) => [e.type, e.block.height, e.amount])).toEqual([
      ["transfer", 1, "1"],
      ["transfer", 2, "2"],
      ["transfer", 3, "3"],
    ]);
    expect(onNodeBehind).toHaveBeenLastCalledWith(null);
  });

  test("a provider whose tip runs ahead of its blocks (backends a block apart) never causes a revert or a busy loop", async () => {
    const { mine, spec, view } = fakeChain();
    const { index, sink, published, blocks } = aliceWatched(mine);
    let tipCalls = 0;
    const tipHeight = spec.source.tipHeight;
    spec.source.tipHeight = () => (tipCalls++, tipHeight());
    const following = follow({ chain: spec, index, watchFeed: noFeed, store: createMemoryFollowerStore(), sink });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    view.blocksLag = 1;
    mine([["alice", "1"]]);
    const before = tipCalls;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Polling every 5 ms: about 60 passes in 300 ms; a busy loop makes thousands.
    expect(tipCalls - before).toBeLessThan(200);
    expect(blocks).toHaveLength(1);
    view.blocksLag = 0;
    await vi.waitFor(() => expect(blocks).toHaveLength(2));
    await following.stop();
    expect(published.map((e) => [e.type, e.amount])).toEqual([["transfer", "1"]]);
  });

  test("a missing block met while walking back to the fork is waited for, so only what really left the chain is reverted", async () => {
    const { chain, mine, spec, view } = fakeChain();
    const { index, store, sink, published, blocks } = aliceWatched(mine);
    const options = { chain: spec, index, watchFeed: noFeed, store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine();
    mine([["alice", "2"]]);
    mine([["alice", "3"]]);
    await runUntil(options, () => blocks.length === 4);
    // Block 3 is replaced; block 2 stays, but the provider answers "no block 2" once during the walk.
    chain.length = 3;
    mine([], "b");
    mine([], "b");
    view.missing.add(2);
    await runUntil(options, () => blocks.some((b) => b.hash === "b4"));
    expect(published.map((e) => [e.type, e.block.hash])).toEqual([
      ["transfer", "a2"],
      ["transfer", "a3"],
      ["reverted", "a3"],
    ]);
  });

  test("a node that stays behind longer than the setting is failed over", async () => {
    const { mine, spec, view } = fakeChain();
    mine();
    mine();
    const store = createMemoryFollowerStore();
    const { sink, blocks } = recordingSink();
    const demoteNode = vi.fn((_reason: string) => "http://lagging.example:8332");
    const options = { chain: { ...spec, demoteNode }, index: new WatchIndex(), watchFeed: noFeed, store, sink, nodeBehindFailoverMs: 30 };
    await runUntil(options, () => blocks.length === 1);
    view.lag = 1;
    await runUntil(options, () => demoteNode.mock.calls.length > 0);
    expect(demoteNode.mock.calls[0]![0]).toMatch(/behind the processed block 1/);
  });
});

describe("following a chain through blocks that come back (issue 16)", () => {
  const noFeed = fixedWatchFeed();

  test("a block that leaves the best chain and comes back (A→B→A) is notified again, under a new generation and event id", async () => {
    const { chain, mine, spec } = fakeChain();
    const { index, store, sink, published, blocks } = aliceWatched(mine);
    const options = { chain: spec, index, watchFeed: noFeed, store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await runUntil(options, () => blocks.length === 2);
    const a = chain.slice(0, 2);
    // invalidateblock a1: a longer branch without the payment.
    chain.length = 1;
    mine([], "b");
    mine([], "b");
    await runUntil(options, () => blocks.some((b) => b.hash === "b2"));
    // reconsiderblock a1: the same block a1 back, on a branch that is longer again.
    chain.length = 0;
    chain.push(...a);
    mine();
    mine();
    await runUntil(options, () => blocks.some((b) => b.hash === "a3"));
    expect(published.map((e) => [e.type, e.block.hash, e.generation])).toEqual([
      ["transfer", "a1", 0],
      ["reverted", "a1", 0],
      ["transfer", "a1", 1],
    ]);
    expect(new Set(published.map((e) => e.event_id)).size).toBe(3);
    // Generation 0 keeps the id it always had.
    expect(published[0]!.event_id).toBe(
      transferEventId(
        "transfer",
        {
          transfer: {
            coin: "BTC",
            currency: "BTC",
            from: null,
            to: "alice",
            amount: "1",
            rawAmount: "100000000",
            decimals: 8,
            tokenContract: null,
            txid: "tx-a1",
            position: 0,
            executionStatus: "SUCCESS",
          },
          webhookId: 1,
          watchedAddress: "alice",
          confirmations: 1,
        },
        "a1",
      ),
    );
  });

  test("a transaction reverted and mined again in another block comes under the next generation, so the highest generation is the last word", async () => {
    const { chain, mine, spec } = fakeChain();
    const { index, sink, published, blocks } = aliceWatched(mine);
    const following = follow({ chain: spec, index, watchFeed: fixedWatchFeed(), store: createMemoryFollowerStore(), sink });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    mine([["alice", "1"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(2));
    // A longer branch in which the same transaction is mined a block later.
    chain.length = 1;
    mine([], "b");
    mine([["alice", "1"]], "b");
    chain[2]!.tx[0]!.txid = "tx-a1";
    mine([], "b");
    await vi.waitFor(() => expect(blocks.some((b) => b.hash === "b3")).toBe(true));
    await following.stop();
    expect(published.map((e) => [e.type, e.txid, e.block.hash, e.generation])).toEqual([
      ["transfer", "tx-a1", "a1", 0],
      ["reverted", "tx-a1", "a1", 0],
      ["transfer", "tx-a1", "b2", 1],
    ]);
  });

  test("a transfer published just before a crash, for a block then reorged away before it was stored, is reverted by the next follower", async () => {
    const { chain, mine, spec } = fakeChain();
    const { index, store, sink, published, blocks } = aliceWatched(mine);
    await runUntil({ chain: spec, index, watchFeed: noFeed, store, sink }, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await publishThenDie({ chain: spec, index, watchFeed: noFeed, store, sink }, () => published.length === 1);
    // Meanwhile block 1 leaves the chain.
    chain.length = 1;
    mine([], "b");
    mine([], "b");
    await runUntil({ chain: spec, index, watchFeed: noFeed, store, sink }, () => blocks.some((b) => b.hash === "b2"));
    expect(published.map((e) => [e.type, e.block.hash])).toEqual([
      ["transfer", "a1"],
      ["reverted", "a1"],
    ]);
  });

  test("a transfer published before a crash whose block stays is not reverted, and processing it again publishes the same id", async () => {
    const { mine, spec } = fakeChain();
    const { index, store, sink, published, blocks } = aliceWatched(mine);
    await runUntil({ chain: spec, index, watchFeed: noFeed, store, sink }, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await publishThenDie({ chain: spec, index, watchFeed: noFeed, store, sink }, () => published.length === 1);
    await runUntil({ chain: spec, index, watchFeed: noFeed, store, sink }, () => blocks.length === 2);
    expect(published.map((e) => e.type)).toEqual(["transfer", "transfer"]);
    expect(published[0]!.event_id).toBe(published[1]!.event_id);
  });
});
