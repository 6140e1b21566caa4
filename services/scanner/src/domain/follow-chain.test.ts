import { silentLogger } from "@chaingate/testing";
import { describe, expect, test } from "vitest";
import { followChain } from "./follow-chain.ts";
import { ReorgTooDeepError } from "./scanner-errors.ts";
import { WatchIndex, type WatchedWebhook } from "./watch-index.ts";
import { createMemoryFollowerStore } from "../testing/memory-follower-store.ts";
import { fakeChain, fixedWatchFeed, recordingSink } from "../testing/fake-chain.ts";
import { runUntil, watching } from "../testing/follow-chain-runners.ts";

describe("following a chain", () => {
  test("starts at the tip, matches from the next block, publishes each block after its matches", async () => {
    const { mine, spec } = fakeChain();
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    const index = new WatchIndex();
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    const registry: { webhook?: WatchedWebhook } = {};
    const watchFeed = fixedWatchFeed((i) => void (registry.webhook && i.apply(registry.webhook)));
    await runUntil({ chain: spec, index, watchFeed, store, sink }, () => blocks.length === 1);
    expect(blocks.map((b) => b.height)).toEqual([1]);
    registry.webhook = watching(["alice"]);
    mine([
      ["alice", "3"],
      ["bob", "4"],
      ["alice", "0.5"],
    ]);
    await runUntil({ chain: spec, index, watchFeed, store, sink }, () => blocks.length === 2);
    // Blocks 0 and 1 were mined before the webhook existed: nothing for them.
    expect(published.map((e) => [e.type, e.block.height, e.position, e.amount, e.confirmations])).toEqual([
      ["transfer", 2, 0, "3", 1],
      ["transfer", 2, 2, "0.5", 1],
    ]);
    expect(blocks[1]).toMatchObject({ height: 2, hash: "a2", parent_hash: "a1", matched_count: 2, tx_count: 1 });
  });

  test("a chain that is not built in must be given its reorg window: refused at start, not retried at every commit", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const { sink } = recordingSink();
    const options = { index: new WatchIndex(), watchFeed: fixedWatchFeed(), store: createMemoryFollowerStore(), sink };
    const signal = AbortSignal.timeout(5_000);
    await expect(followChain({ ...options, chain: { ...spec, coin: "POLYGON" }, signal, logger: silentLogger })).rejects.toThrow(
      /POLYGON: followChain needs reorgWindow/,
    );
  });

  test("an N-confirmation webhook is notified once the block is N deep, with its depth", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"], { confirmations: 3 }));
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    const options = { chain: spec, index, watchFeed: fixedWatchFeed(), store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine([["alice", "1"]]);
    mine();
    await runUntil(options, () => blocks.length === 3);
    expect(published).toEqual([]);
    mine();
    await runUntil(options, () => blocks.length === 4);
    expect(published.map((e) => [e.block.height, e.confirmations, e.amount])).toEqual([[1, 3, "1"]]);
  });

  test("catching up many blocks in one batch still publishes each pending match once, at its depth", async () => {
    const { mine, spec } = fakeChain();
    mine();
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    for (let i = 0; i < 5; i++) mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"], { confirmations: 2 }));
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    await runUntil(
      { chain: spec, index, watchFeed: fixedWatchFeed(), store, sink, startHeight: 0, fetchConcurrency: 3 },
      () => blocks.length === 8,
    );
    expect(published.map((e) => [e.block.height, e.confirmations, e.amount])).toEqual([
      [1, 2, "1"],
      [2, 2, "2"],
    ]);
    expect(blocks.map((b) => b.matched_count)).toEqual([0, 0, 1, 1, 0, 0, 0, 0]);
  });
});

describe("following a chain through reorgs and restarts", () => {
  test("a reorg reverts what was notified in the removed blocks and follows the new branch", async () => {
    const { chain, mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"]));
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    const options = { chain: spec, index, watchFeed: fixedWatchFeed(), store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    await runUntil(options, () => blocks.length === 3);
    // The node switches to a longer branch from block 1: block 2's payment is gone, block 1's is
    // mined again in the new block 2.
    chain.length = 1;
    mine([], "b");
    mine([["alice", "1"]], "b");
    mine([], "b");
    await runUntil(options, () => blocks.some((b) => b.hash === "b3"));
    expect(published.map((e) => [e.type, e.block.hash, e.amount])).toEqual([
      ["transfer", "a1", "1"],
      ["transfer", "a2", "2"],
      ["reverted", "a1", "1"],
      ["reverted", "a2", "2"],
      ["transfer", "b2", "1"],
    ]);
    const reverted = published.filter((e) => e.type === "reverted");
    const original = published.find((e) => e.block.hash === "a2")!;
    const revert = reverted.find((e) => e.block.hash === "a2")!;
    expect(revert.event_id).not.toBe(original.event_id);
    expect({ ...revert, event_id: "", type: "" }).toEqual({ ...original, event_id: "", type: "" });
    expect(new Set(published.map((e) => e.event_id)).size).toBe(published.length);
  });

  test("a pending match whose block is reorged away before reaching its depth is never notified, nor reverted", async () => {
    const { chain, mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"], { confirmations: 3 }));
    const store = createMemoryFollowerStore();
    const { sink, published, blocks } = recordingSink();
    const options = { chain: spec, index, watchFeed: fixedWatchFeed(), store, sink };
    await runUntil(options, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await runUntil(options, () => blocks.length === 2);
    chain.length = 1;
    mine([], "b");
    mine([["alice", "5"]], "b");
    mine([], "b");
    mine([], "b");
    await runUntil(options, () => blocks.some((b) => b.hash === "b4"));
    expect(published.map((e) => [e.type, e.block.hash, e.amount, e.confirmations])).toEqual([["transfer", "b2", "5", 3]]);
  });

  test("a block processed twice (crash before the cursor was stored) yields the same event ids", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    index.apply(watching(["alice"]));
    const { sink, published, blocks } = recordingSink();
    const first = createMemoryFollowerStore();
    await runUntil({ chain: spec, index, watchFeed: fixedWatchFeed(), store: first, sink }, () => blocks.length === 1);
    mine([["alice", "1"]]);
    await runUntil({ chain: spec, index, watchFeed: fixedWatchFeed(), store: first, sink }, () => blocks.length === 2);
    // A second store that never saw block 1 committed, as after a crash right after publishing.
    const second = createMemoryFollowerStore();
    await second.commitBlocks("BTC", [{ height: 0, hash: "a0", parentHash: null, timeMs: 0, txCount: 1, matchedAtMs: 0 }], [], [], 0);
    await runUntil({ chain: spec, index, watchFeed: fixedWatchFeed(), store: second, sink }, () => blocks.length === 3);
    expect(published).toHaveLength(2);
    expect(published[0]!.event_id).toBe(published[1]!.event_id);
  });

  test("the kept window (reorgWindow) bounds the fork it can undo: within it the follower rewinds, deeper it stops with ReorgTooDeepError", async () => {
    for (const [window, deepEnough] of [
      [8, true],
      [3, false],
    ] as const) {
      const { chain, mine, spec } = fakeChain();
      for (let i = 0; i < 10; i++) mine();
      const index = new WatchIndex();
      const store = createMemoryFollowerStore();
      const { sink, blocks } = recordingSink();
      const watchFeed = fixedWatchFeed();
      await runUntil({ chain: spec, index, watchFeed, store, sink, startHeight: 0, reorgWindow: window }, () => blocks.length === 10);
      // A competing branch from height 4: the six blocks above it leave the best chain.
      chain.length = 4;
      for (let i = 0; i < 8; i++) mine([], "b");
      const controller = new AbortController();
      const following = followChain({
        chain: spec,
        index,
        watchFeed,
        store,
        sink,
        signal: controller.signal,
        logger: silentLogger,
        pollIntervalMs: 5,
        reorgWindow: window,
      });
      if (deepEnough) {
        const deadline = Date.now() + 5_000;
        while (!blocks.some((b) => b.hash === "b11") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
        controller.abort();
        await following;
        expect(blocks.some((b) => b.hash === "b11")).toBe(true);
      } else {
        await expect(following).rejects.toBeInstanceOf(ReorgTooDeepError);
      }
    }
  });
});
