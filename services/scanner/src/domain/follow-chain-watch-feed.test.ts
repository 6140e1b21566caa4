import { describe, expect, test, vi } from "vitest";
import type { RescanJob } from "./ports.ts";
import { WatchIndex, type WatchedWebhook } from "./watch-index.ts";
import { createMemoryFollowerStore } from "../testing/memory-follower-store.ts";
import { fakeChain, fixedWatchFeed, recordingSink } from "../testing/fake-chain.ts";
import { follow, watching } from "../testing/follow-chain-runners.ts";

describe("the watch list is never older than the block (issue 16 item 7)", () => {
  const BLOCK_TIME_MS = (height: number) => (1_700_000_000 + height) * 1000;

  test("a block newer than the registry's watermark waits for the feed, then is matched with the address added meanwhile", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    const registry = { watermarkMs: BLOCK_TIME_MS(0), webhook: undefined as WatchedWebhook | undefined };
    const watchFeed = fixedWatchFeed(
      (i) => void (registry.webhook && i.apply(registry.webhook)),
      () => ({ watermarkMs: registry.watermarkMs, rescans: [] }),
    );
    const { sink, published, blocks } = recordingSink();
    const onWatchFeedBehind = vi.fn();
    const following = follow({
      chain: spec,
      index,
      watchFeed,
      store: createMemoryFollowerStore(),
      sink,
      watchGraceMs: 0,
      onWatchFeedBehind,
    });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    // Block 1 pays alice, whom the registry watches from before block 1, but its feed is stalled.
    mine([["alice", "1"]]);
    await vi.waitFor(() => expect(onWatchFeedBehind).toHaveBeenCalledWith(1_000));
    expect(blocks).toHaveLength(1);
    registry.webhook = watching(["alice"]);
    registry.watermarkMs = BLOCK_TIME_MS(1);
    await vi.waitFor(() => expect(blocks).toHaveLength(2));
    await following.stop();
    expect(published.map((e) => [e.type, e.block.height, e.amount])).toEqual([["transfer", 1, "1"]]);
    expect(onWatchFeedBehind).toHaveBeenLastCalledWith(null);
  });

  test("before any watermark nothing is matched", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const { sink, blocks } = recordingSink();
    const onWatchFeedBehind = vi.fn();
    const watchFeed = fixedWatchFeed(undefined, () => ({ watermarkMs: undefined, rescans: [] }));
    const following = follow({
      chain: spec,
      index: new WatchIndex(),
      watchFeed,
      store: createMemoryFollowerStore(),
      sink,
      onWatchFeedBehind,
    });
    await vi.waitFor(() => expect(onWatchFeedBehind).toHaveBeenCalledWith(Number.POSITIVE_INFINITY));
    await following.stop();
    expect(blocks).toEqual([]);
  });

  test("an address that reaches the index after blocks were matched without it is rescanned once: kept blocks matched since it became watched, at their depth", async () => {
    const { mine, spec } = fakeChain();
    mine();
    const index = new WatchIndex();
    const registry = { webhook: undefined as WatchedWebhook | undefined, rescans: [] as RescanJob[] };
    const watchFeed = fixedWatchFeed(
      (i) => void (registry.webhook && i.apply(registry.webhook)),
      () => ({ watermarkMs: Number.POSITIVE_INFINITY, rescans: registry.rescans.filter((job) => !watchFeed.finished.includes(job.id)) }),
    );
    const { sink, published, blocks } = recordingSink();
    const following = follow({ chain: spec, index, watchFeed, store: createMemoryFollowerStore(), sink });
    await vi.waitFor(() => expect(blocks).toHaveLength(1));
    const watchedSince = Date.now();
    mine([["alice", "1"]]);
    mine([["alice", "2"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(3));
    expect(published).toEqual([]);
    // Alice was watched from before blocks 1 and 2 were matched, but reaches the scanner only now;
    // an address whose since is later than every match has nothing to rescan.
    registry.webhook = watching(["alice", "bob"]);
    registry.rescans = [
      { id: 7, coin: "BTC", webhookId: 1, addresses: ["alice"], sinceMs: watchedSince },
      { id: 8, coin: "BTC", webhookId: 1, addresses: ["bob"], sinceMs: Date.now() + 60_000 },
    ];
    await vi.waitFor(() => expect(watchFeed.finished).toEqual([7, 8]));
    mine([["alice", "3"]]);
    await vi.waitFor(() => expect(blocks).toHaveLength(4));
    await following.stop();
    expect(published.map((e) => [e.type, e.block.height, e.amount, e.confirmations])).toEqual([
      ["transfer", 1, "1", 2],
      ["transfer", 2, "2", 1],
      ["transfer", 3, "3", 1],
    ]);
  });
});
